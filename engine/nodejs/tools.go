//go:build tools

// Package tools names the binary this module builds, so `go mod tidy` keeps
// its dependencies pinned in go.sum.
package tools

import _ "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"
