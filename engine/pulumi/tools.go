//go:build tools

// Package tools names the binaries this module builds, so `go mod tidy`
// keeps their dependencies pinned in go.sum.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
