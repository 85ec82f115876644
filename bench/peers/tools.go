//go:build tools

// Package tools names the peer binaries the benchmarks build, so `go mod
// tidy` keeps their dependencies pinned in go.sum.
package tools

import (
	_ "github.com/homeport/dyff/cmd/dyff"
	_ "github.com/yannh/kubeconform/cmd/kubeconform"
)
