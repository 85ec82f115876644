#!/usr/bin/env bash
# Builds the Kubernetes control plane the cluster tests run, from Go modules
# pinned in this folder: kube-apiserver, kube-controller-manager and
# kube-scheduler (k8s.io/kubernetes), and kwok (fake nodes), with kwok's stage
# files beside it. See kube/README.md.
#
#   kube/build.sh          build (or find) the binaries; prints their folder
#   kube/build.sh --pin    regenerate kubernetes/go.mod's replace lines from
#                          the pinned release's own go.mod, then tidy
#
# Output: the folder holding the binaries, on stdout (progress on stderr). The
# folder is keyed by the Go version, this script and every go.mod/go.sum here,
# so a second run only hashes and prints. Every build shares the machine's
# GOMODCACHE and GOCACHE.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

KUBE_VERSION=v1.34.4   # must match kubernetes/go.mod
STAGING_VERSION=v0.34.4

say() { printf 'kube: %s\n' "$*" >&2; }

command -v go >/dev/null 2>&1 || { say "go is not on PATH; install Go ≥ 1.26 (Debian: golang, or go.dev/dl through your mirror)"; exit 1; }

if [ "${1:-}" = "--pin" ]; then
  cd "$here/kubernetes"
  mod=$(go mod download -json "k8s.io/kubernetes@$KUBE_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')
  [ -n "$mod" ] || { say "could not download k8s.io/kubernetes@$KUBE_VERSION"; exit 1; }
  sed -i '/^replace (/,/^)/d' go.mod
  { echo "replace ("; grep '=> ./staging' "$mod" | awk -v v="$STAGING_VERSION" '{print "\t"$1" => "$1" "v}'; echo ")"; } >>go.mod
  go mod tidy
  say "pinned $(grep -c '=> k8s.io' go.mod) staging modules at $STAGING_VERSION"
  exit 0
fi

cache_root=${CHARTROOM_KUBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/chartroom/kube}
key=$({ go version; cat "$here/build.sh"; for m in kubernetes kwok; do cat "$here/$m/go.mod" "$here/$m/go.sum" "$here/$m/tools.go"; done; } | sha256sum | cut -c1-16)
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

# Without the version stamped, the server says v0.0.0-master and Helm's
# kubeVersion checks fail against it.
stamp() {
  local major=${KUBE_VERSION#v}; major=${major%%.*}
  local minor=${KUBE_VERSION#v*.}; minor=${minor%%.*}
  local flags="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags="$flags -X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
  done
  printf '%s' "$flags"
}

build_control_plane() {
  cd "$here/kubernetes"
  go build -ldflags "$(stamp)" -o "$stage/bin/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler
}

# kwok exits with "no stages found" without its stage files; they ship in its
# module, under kustomize/stage/. These are the ones its "fast" set lists:
# nodes Ready (with lease heartbeats, or the node controller marks them
# NotReady), pods Ready, a Job's pods Succeeded, deletes finished.
build_kwok() {
  cd "$here/kwok"
  go build -ldflags "-s -w" -o "$stage/bin/kwok" sigs.k8s.io/kwok/cmd/kwok
  local dir
  dir=$(go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)
  mkdir -p "$stage/bin/stages"
  local set
  for set in node/fast node/heartbeat-with-lease pod/fast; do
    find "$dir/kustomize/stage/$set" -maxdepth 1 -name '*.yaml' ! -name kustomization.yaml -exec cp {} "$stage/bin/stages/" \;
  done
  chmod u+w "$stage/bin/stages"/*
}

say "building into $out (Go modules come from the module proxy; a cold build takes many minutes)"
step "[1/2] kube-apiserver, kube-controller-manager, kube-scheduler $KUBE_VERSION" build_control_plane
step "[2/2] kwok $(sed -n 's/^require sigs.k8s.io\/kwok //p' "$here/kwok/go.mod")" build_kwok

rm -rf "$out"
mkdir -p "$out"
mv "$stage/bin" "$out/bin"
printf 'built in %ss with %s\n' "$(( $(date +%s) - started ))" "$(go version)" >"$out/complete"
say "done in $(( $(date +%s) - started ))s"
printf '%s\n' "$out/bin"
