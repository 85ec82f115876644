#!/usr/bin/env bash
# Builds the peers `npm run bench` measures chartroom against, from the Go
# modules pinned in this folder: dyff (the offline review most people run:
# `helm template` of both versions, then `dyff between`), kubeconform (`helm
# template | kubeconform` for check), and rusage, which runs a command and
# prints what its whole process tree cost (both sides are measured with it).
#
# Output: the folder holding the binaries, on stdout (progress on stderr). The
# folder is keyed by the Go version, this script, go.mod, go.sum and the
# sources here, so a second run only hashes and prints. Builds share the
# machine's GOMODCACHE and GOCACHE.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

say() { printf 'peers: %s\n' "$*" >&2; }

command -v go >/dev/null 2>&1 || { say "go is not on PATH; install Go ≥ 1.26 (Debian: golang, or go.dev/dl through your mirror)"; exit 1; }

cache_root=${CHARTROOM_PEERS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/chartroom/peers}
key=$({ go version; cat "$here/build.sh" "$here/go.mod" "$here/go.sum" "$here/tools.go" "$here/rusage/main.go"; } | sha256sum | cut -c1-16)
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
export GOFLAGS="-mod=readonly -trimpath -buildvcs=false"
export CGO_ENABLED=0
started=$(date +%s)
cd "$here"
for package in github.com/homeport/dyff/cmd/dyff github.com/yannh/kubeconform/cmd/kubeconform ./rusage; do
  say "building ${package##*/}…"
  go build -ldflags "-s -w" -o "$stage/bin/" "$package"
done
rm -rf "$out"
mkdir -p "$out"
mv "$stage/bin" "$out/bin"
printf 'built in %ss with %s\n' "$(( $(date +%s) - started ))" "$(go version)" >"$out/complete"
say "done in $(( $(date +%s) - started ))s"
printf '%s\n' "$out/bin"
