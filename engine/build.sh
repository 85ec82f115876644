#!/usr/bin/env bash
# Builds the real Pulumi engine the engine tests run, from Go modules pinned in
# this folder: the Pulumi CLI, the Node.js language host, the Kubernetes
# provider, and the Helm v3 that provider embeds. See engine/README.md.
#
# Output: the folder holding the four binaries, on stdout (progress goes to
# stderr). The folder is keyed by the Go version and every go.mod/go.sum here,
# so a second run only hashes and prints. A cold build takes many minutes on
# two cores; every build shares the machine's GOMODCACHE and GOCACHE.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Versions stamped into the binaries. The CLI and host take theirs from the
# module they are built from; the provider gets the SDK release its commit
# became (see kubernetes/go.mod). Helm gets none, as inside the provider.
CLI_VERSION=v3.274.1
HOST_VERSION=v3.68.0
PROVIDER_VERSION=4.25.0

say() { printf 'engine: %s\n' "$*" >&2; }

command -v go >/dev/null 2>&1 || { say "go is not on PATH; install Go ≥ 1.26 (Debian: golang, or go.dev/dl through your mirror)"; exit 1; }

cache_root=${CHARTROOM_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/chartroom/engine}
key=$({ go version; cat "$here/build.sh"; for m in pulumi nodejs kubernetes; do cat "$here/$m/go.mod" "$here/$m/go.sum" "$here/$m/tools.go"; done; } | sha256sum | cut -c1-16)
out="$cache_root/$key"
if [ -f "$out/complete" ]; then printf '%s\n' "$out/bin"; exit 0; fi

mkdir -p "$cache_root"
exec 9>"$cache_root/.lock"
if ! flock -n 9; then
  say "another build is running; waiting for it"
  flock 9
fi
if [ -f "$out/complete" ]; then printf '%s\n' "$out/bin"; exit 0; fi

stage=$(mktemp -d "$cache_root/.build-XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin"
export GOFLAGS="-mod=readonly -trimpath -buildvcs=false"
export CGO_ENABLED=0
started=$(date +%s)

# Runs one build step, printing a line every minute so a long step is visibly alive.
step() {
  local label=$1; shift
  local t0; t0=$(date +%s)
  say "$label…"
  ( while sleep 60; do say "  … $label, $(( $(date +%s) - t0 ))s"; done ) &
  local ticker=$!
  local status=0
  "$@" >"$stage/step.log" 2>&1 || status=$?
  kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null || true
  if [ "$status" -ne 0 ]; then
    say "$label failed (exit $status):"
    tail -n 40 "$stage/step.log" >&2
    exit "$status"
  fi
  say "$label: $(( $(date +%s) - t0 ))s"
}

build_cli() {
  cd "$here/pulumi"
  go build -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$CLI_VERSION" \
    -o "$stage/bin/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
}

build_host() {
  cd "$here/nodejs"
  go build -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$HOST_VERSION" \
    -o "$stage/bin/pulumi-language-nodejs" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs
}

# The provider's main package embeds a schema its own build generates (the
# module holds schema.json, not schema-embed.json), so it is built from a copy
# inside this pinning module, generated the way upstream's Makefile does it.
build_provider() {
  cp -R "$here/kubernetes" "$stage/kubernetes"
  cd "$stage/kubernetes"
  # `go mod download` fetches the module when the cache is cold (`go list -m` would print nothing).
  local upstream
  upstream=$(go mod download -json github.com/pulumi/pulumi-kubernetes/provider/v4 | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$upstream" ] || { echo "could not locate the provider module" >&2; return 1; }
  upstream=$upstream/cmd/pulumi-resource-kubernetes
  mkdir -p cmd/pulumi-resource-kubernetes
  cp "$upstream"/main.go "$upstream"/generate.go "$upstream"/schema.json "$upstream"/terraform-mapping.json cmd/pulumi-resource-kubernetes/
  chmod -R u+w cmd
  (cd cmd/pulumi-resource-kubernetes && VERSION=$PROVIDER_VERSION go run generate.go)
  go build -ldflags "-s -w -X github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version.Version=$PROVIDER_VERSION" \
    -o "$stage/bin/pulumi-resource-kubernetes" ./cmd/pulumi-resource-kubernetes
}

build_helm() {
  cd "$here/kubernetes"
  go build -ldflags "-s -w" -o "$stage/bin/helm" helm.sh/helm/v3/cmd/helm
}

say "building into $out (Go modules come from the module proxy; a cold build takes many minutes)"
step "[1/4] pulumi CLI $CLI_VERSION" build_cli
step "[2/4] pulumi-language-nodejs $HOST_VERSION" build_host
step "[3/4] pulumi-resource-kubernetes $PROVIDER_VERSION" build_provider
step "[4/4] helm (as embedded by the provider)" build_helm

rm -rf "$out"
mkdir -p "$out"
mv "$stage/bin" "$out/bin"
printf 'built in %ss with %s\n' "$(( $(date +%s) - started ))" "$(go version)" >"$out/complete"
say "done in $(( $(date +%s) - started ))s"
printf '%s\n' "$out/bin"
