//go:build tools

// Package tools names what this module builds, so `go mod tidy` keeps every
// dependency pinned in go.sum.
package tools

import _ "sigs.k8s.io/kwok/cmd/kwok"
