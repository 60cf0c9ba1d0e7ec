#!/usr/bin/env bash
# Makes sure podman, buildah, runc, debootstrap and podman-compose are installed (Debian packages),
# for the container image build and its test (scripts/build-image.sh, test/e2e/image.e2e-spec.ts),
# and writes the project's podman configuration (scripts/podman-env.sh). Quiet when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
for tool in podman buildah runc debootstrap podman-compose; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then echo "missing ${missing[*]} and no apt-get: install them by hand" >&2; exit 1; fi
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "installing ${missing[*]} (apt)…"
  export DEBIAN_FRONTEND=noninteractive
  # The package names are the commands' names.
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
    { $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null; }
fi
. scripts/podman-env.sh
podman info --format '{{.Store.GraphDriverName}}' >/dev/null || { echo "podman is installed but does not run (podman info)" >&2; exit 1; }
