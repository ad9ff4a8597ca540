#!/bin/sh
# Builds pocketforge as one static binary, exactly as the container image does (the Dockerfile
# runs this script; so does .ci/run, which then checks the result is static): no cgo, so the
# binary runs on scratch or distroless images and any Linux of the same architecture; -trimpath,
# so no build machine's paths end up in it; no VCS stamp (the image's build context has no .git);
# symbols stripped; the version as `pocketforge version` prints it.
#
# usage: scripts/build-static.sh OUTPUT [VERSION]   (VERSION defaults to $POCKETFORGE_VERSION, then "dev")
set -eu
out=${1:?usage: scripts/build-static.sh OUTPUT [VERSION]}
version=${2:-${POCKETFORGE_VERSION:-dev}}
case $out in /*) ;; *) out="$PWD/$out" ;; esac
cd "$(dirname "$0")/.."
CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags "-s -w -X main.version=$version" -o "$out" .
