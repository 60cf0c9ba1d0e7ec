#!/usr/bin/env bash
# Builds the runtime image from the project's Dockerfile without a registry (podman, --pull=never):
# the base from scripts/build-base-image.sh (cached), the runtime tree assembled on the host from the
# built checkout by scripts/image-tree.js (its node_modules part cached under the build context while
# package-lock.json and the package.json files stay the same), then
#   podman build --pull=never --build-arg BASE_IMAGE=<local base> --build-context tree=<tree> <empty dir>
# with the version (package.json) and revision (git HEAD) as OCI labels and annotations.
# The last line printed is the image reference. A machine with a registry and Docker needs none of
# this: `docker build -t mapi:dev .` (docs/services/deployment.md).
#   MAPI_IMAGE         the tag (default localhost/mapi:dev)
#   MAPI_IMAGE_WORK    where the tree goes (default .run/image; git-ignored)
#   MAPI_SKIP_BUILD=1  take the dist/ folders as they are (default: scripts/build.sh first, cached by Nx)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/podman-env.sh
log() { echo "build-image: $*" >&2; }
image="${MAPI_IMAGE:-localhost/mapi:dev}"
work="${MAPI_IMAGE_WORK:-.run/image}"
# One build at a time per work tree: two test files of a run may ask for the image at once.
mkdir -p "$(dirname "$work")"
exec 9>"$work.lock"
flock 9
tree="$work/tree/out" # the Dockerfile's stage `tree` holds /out/app and /out/deps
start=$(date +%s.%N)
elapsed() { node -e 'console.log((Date.now()/1000-process.argv[1]).toFixed(1))' "$start"; }

[ "${MAPI_SKIP_BUILD:-}" = 1 ] || bash scripts/build.sh >&2
base=$(bash scripts/build-base-image.sh | tail -1)

mkdir -p "$tree" "$work/empty"
if [ "$(cat "$tree/deps.hash" 2>/dev/null)" != "$(node scripts/image-tree.js . --deps-hash)" ]; then
  log "assembling the production node_modules"
  node scripts/image-tree.js . "$tree" --deps-only
fi
node scripts/image-tree.js . "$tree" --app-only
log "tree ready after $(elapsed) s"

version=$(node -p 'require("./package.json").version')
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
[ "$revision" = unknown ] || git diff-index --quiet HEAD -- 2>/dev/null || revision="$revision-dirty"
created=$(date -u +%Y-%m-%dT%H:%M:%SZ)
labels=(
  "org.opencontainers.image.version=$version"
  "org.opencontainers.image.revision=$revision"
  "org.opencontainers.image.created=$created"
)
args=()
# As --label too: buildah's layer cache keys the Dockerfile's LABEL on its text, not on the build
# arguments in it, so a cached build would keep the labels of the build that made the layer.
for l in "${labels[@]}"; do args+=(--label "$l" --annotation "$l"); done
# The build context is empty: only the build stage (not run here) reads it.
previous=$(podman image inspect "$image" --format '{{.Id}}' 2>/dev/null || true)
podman build --pull=never --format oci -f Dockerfile --build-context "tree=$work/tree" \
  --build-arg "BASE_IMAGE=$base" \
  --build-arg "VERSION=$version" --build-arg "REVISION=$revision" --build-arg "CREATED=$created" \
  "${args[@]}" -t "$image" "$work/empty" >&2
# The image this tag named before, when nothing else names it: its layers are not kept for nothing.
if [ -n "$previous" ] && [ "$previous" != "$(podman image inspect "$image" --format '{{.Id}}')" ] &&
  [ "$(podman image inspect "$previous" --format '{{len .RepoTags}}' 2>/dev/null)" = 0 ]; then
  podman rmi "$previous" >/dev/null 2>&1 || true
fi
size=$(podman image inspect "$image" --format '{{.Size}}')
log "built $image in $(elapsed) s: $((size / 1000000)) MB uncompressed (base $base)"
echo "$image"
