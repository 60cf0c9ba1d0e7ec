#!/usr/bin/env bash
# Builds and installs the pgvector extension for the local PostgreSQL when it is missing.
#
# Usage: scripts/ensure-pgvector.sh [PG_MAJOR]
#   PG_MAJOR        PostgreSQL major version to build for (default: $PG_MAJOR, else the
#                   newest one under /usr/lib/postgresql)
#   PGVECTOR_SUITES Debian releases whose source package is tried, in order
#                   (default: "trixie sid")
#   DEBIAN_MIRROR   default: http://deb.debian.org/debian
#
# Debian 12 has no pgvector binary package for PostgreSQL 15, so the source package is
# fetched from a newer Debian release through a private apt state folder (the machine's
# own apt configuration and lists are left untouched), then built with PGXS.
# Quiet and quick when vector.control is already installed.
set -euo pipefail

SUITES=${PGVECTOR_SUITES:-trixie sid}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

log() { echo "ensure-pgvector: $*"; }
die() { echo "ensure-pgvector: ERROR: $*" >&2; exit 1; }

pg_major() {
  if [[ -n ${1:-} ]]; then echo "$1"; return; fi
  if [[ -n ${PG_MAJOR:-} ]]; then echo "$PG_MAJOR"; return; fi
  local newest
  newest=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)
  [[ -n $newest ]] || die "no PostgreSQL server found under /usr/lib/postgresql; install it first: apt-get install -y postgresql"
  echo "$newest"
}

ver=$(pg_major "${1:-}")
PG_CONFIG=/usr/lib/postgresql/$ver/bin/pg_config
[[ -d /usr/lib/postgresql/$ver ]] || die "PostgreSQL $ver is not installed (no /usr/lib/postgresql/$ver)"

extension_dir() {
  if [[ -x $PG_CONFIG ]]; then echo "$("$PG_CONFIG" --sharedir)/extension"
  else echo "/usr/share/postgresql/$ver/extension"; fi
}

# Already installed: nothing to do, say nothing.
[[ -f "$(extension_dir)/vector.control" ]] && exit 0

packages=("postgresql-server-dev-$ver" gcc make dpkg-dev)
if [[ $(id -u) -ne 0 ]]; then
  die "pgvector is not installed for PostgreSQL $ver and building it needs root. Run as root:
  sudo $0 $ver"
fi

tmp=$(mktemp -d /tmp/ensure-pgvector.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"   # apt downloads as the unprivileged _apt user
buildlog=$tmp/build.log

install_build_deps() {
  local missing=() p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  log "installing build dependencies: ${missing[*]}"
  apt-get update -qq >"$buildlog" 2>&1 || { cat "$buildlog" >&2; die "apt-get update failed"; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    >>"$buildlog" 2>&1 || { tail -20 "$buildlog" >&2; die "could not install ${missing[*]} (apt-get install -y ${missing[*]})"; }
}

# Fetches pgvector_*.dsc and friends into $tmp/src; tries each suite in turn.
fetch_source() {
  local suite apt_opts
  mkdir -p "$tmp/src" "$tmp/lists/partial" "$tmp/cache/archives/partial"
  chmod -R 755 "$tmp/src" "$tmp/lists" "$tmp/cache"
  for suite in $SUITES; do
    echo "deb-src [signed-by=$KEYRING] $MIRROR $suite main" >"$tmp/sources.list"
    apt_opts=(-o "Dir::Etc::sourcelist=$tmp/sources.list" -o Dir::Etc::sourceparts=-
              -o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache"
              -o APT::Get::List-Cleanup=0)
    log "fetching the pgvector source package from Debian $suite"
    if apt-get "${apt_opts[@]}" update -qq >>"$buildlog" 2>&1 &&
       (cd "$tmp/src" && apt-get "${apt_opts[@]}" source --download-only -qq pgvector) >>"$buildlog" 2>&1 &&
       compgen -G "$tmp/src/pgvector_*.dsc" >/dev/null; then
      return 0
    fi
    log "no pgvector source from $suite (see messages below), trying the next release"
    tail -5 "$buildlog" >&2
  done
  die "could not download the pgvector source package from $MIRROR (suites: $SUITES).
  Get pgvector another way, e.g. 'git clone https://github.com/pgvector/pgvector' or a release
  tarball, then: make OPTFLAGS= PG_CONFIG=$PG_CONFIG && make install PG_CONFIG=$PG_CONFIG"
}

build_and_install() {
  local dsc srcdir
  dsc=$(ls "$tmp"/src/pgvector_*.dsc | head -1)
  srcdir=$tmp/build
  dpkg-source --no-check -x "$dsc" "$srcdir" >>"$buildlog" 2>&1 ||
    { tail -20 "$buildlog" >&2; die "dpkg-source -x $(basename "$dsc") failed"; }
  log "building $(basename "$dsc" .dsc) for PostgreSQL $ver"
  # OPTFLAGS= : no -march=native, so the library also runs on other CPUs (as Debian builds it)
  make -C "$srcdir" -j"$(nproc)" OPTFLAGS= PG_CONFIG="$PG_CONFIG" >>"$buildlog" 2>&1 &&
    make -C "$srcdir" install OPTFLAGS= PG_CONFIG="$PG_CONFIG" >>"$buildlog" 2>&1 ||
    { tail -30 "$buildlog" >&2; die "building pgvector failed (log above)"; }
}

start=$SECONDS
install_build_deps
fetch_source
build_and_install
[[ -f "$(extension_dir)/vector.control" ]] || die "make install finished but $(extension_dir)/vector.control is missing"
log "pgvector installed for PostgreSQL $ver in $((SECONDS - start)) s ($(extension_dir)/vector.control)"
