//go:build tools

// Package tools names what this module builds, so `go mod tidy` keeps every
// dependency pinned in go.sum: the provider, the helm CLI, and the schema
// package the provider's generate.go runs with before its build.
package tools

import (
	_ "github.com/pulumi/pulumi-kubernetes/provider/v4/cmd/pulumi-resource-kubernetes"
	_ "github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	_ "helm.sh/helm/v3/cmd/helm"
)
