#!/usr/bin/env bash
# Builds, without a registry, one local image for docker-compose.yml's three data services, from the
# same Debian packages this machine runs them from: PostgreSQL 15 (with the host's pgvector build,
# scripts/ensure-pgvector.sh), Redis 7 and nats-server, plus wget for compose's NATS health check.
# debootstrap (minbase) with those packages, imported as localhost/mapi-data-root:bookworm-<hash>,
# then scripts/data-image/'s entrypoints on top (Postgres initialises an empty data directory as the
# official image does, from POSTGRES_PASSWORD and POSTGRES_DB; Redis leaves protected mode, as the
# official image does) as localhost/mapi-data:bookworm-<hash>. Each is cached by its inputs.
# deploy/compose/local-data.yml points compose's postgres, redis and nats services at it
# (docs/services/deployment.md, "Compose without a registry"). The last line printed is the image.
# Needs root (debootstrap) and podman (scripts/ensure-podman.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/podman-env.sh
log() { echo "build-data-image: $*" >&2; }
die() {
  echo "build-data-image: ERROR: $*" >&2
  exit 1
}

# One build at a time on the machine: a second caller waits, then finds it cached.
exec 8>/tmp/mapi-data-image.lock
flock 8

suite=bookworm
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
packages=postgresql-15,redis-server,nats-server,wget
vector_so=/usr/lib/postgresql/15/lib/vector.so
[ -f "$vector_so" ] || bash scripts/ensure-pgvector.sh >&2 || die "pgvector is not built on this machine"
vector_hash=$(cat "$vector_so" /usr/share/postgresql/15/extension/vector.control | sha256sum | cut -c1-16)
# Two layers of cache: the Debian root (slow: debootstrap), keyed by what goes into it, and the
# entrypoints on top of it (a second), keyed by the root and scripts/data-image/.
root_hash=$(printf '%s\n' root-v1 "$suite" "$packages" "$vector_hash" | sha256sum | cut -c1-12)
root_image="localhost/mapi-data-root:$suite-$root_hash"
hash=$(printf '%s\n' "$root_hash" "$(cat scripts/data-image/*.sh | sha256sum | cut -c1-64)" | sha256sum | cut -c1-12)
image="localhost/mapi-data:$suite-$hash"

if podman image exists "$image"; then
  log "$image exists (cached)"
  echo "$image"
  exit 0
fi

work=$(mktemp -d /tmp/mapi-data-XXXXXX)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
if podman image exists "$root_image"; then
  log "$root_image exists (cached)"
else
  rootfs="$work/rootfs"
  log "debootstrap $suite (minbase + $packages) from $mirror"
  debootstrap --variant=minbase --include="$packages" "$suite" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    {
      tail -30 "$work/debootstrap.log" >&2
      die "debootstrap failed"
    }
  # The packages' own start-up made a cluster and a Redis config of the host's taste: the entrypoint
  # makes the cluster in the volume instead, and Redis runs from its command line.
  rm -rf "$rootfs"/var/lib/postgresql/15 "$rootfs"/etc/postgresql/15 "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/*
  find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name 'en*' ! -name 'locale.alias' -exec rm -rf {} + 2>/dev/null || true
  cp "$vector_so" "$rootfs$vector_so"
  cp /usr/share/postgresql/15/extension/vector* "$rootfs/usr/share/postgresql/15/extension/"
  for bin in /usr/lib/postgresql/15/bin/postgres /usr/bin/redis-server /usr/sbin/nats-server /usr/bin/wget /usr/sbin/runuser; do
    [ -x "$rootfs$bin" ] || die "$bin is missing from the root"
  done
  log "importing $root_image"
  tar -C "$rootfs" -c . | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/lib/postgresql/15/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["/bin/sh"]' \
    - "$root_image" >/dev/null || die "podman import failed"
fi

cat >"$work/Containerfile" <<CONTAINERFILE
FROM $root_image
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint
COPY redis-entrypoint.sh /usr/local/bin/redis-entrypoint
LABEL org.opencontainers.image.title=mapi-data
LABEL org.opencontainers.image.description="Debian $suite: $packages, pgvector"
CONTAINERFILE
podman build --pull=never -q -f "$work/Containerfile" -t "$image" scripts/data-image >/dev/null || die "podman build failed"
log "built $image in $(($(date +%s) - start)) s ($(podman image inspect "$image" --format '{{.Size}}' | awk '{printf "%.0f MB", $1/1e6}'))"
echo "$image"
