#!/bin/sh
# The data image's Redis (scripts/build-data-image.sh), as the official image starts it: without a
# config file Redis runs in protected mode and refuses every client that is not on loopback — the
# apps, on the compose network, are not — so a command starting with redis-server gets
# `--protected-mode no` (the compose network is the boundary, as with the official image).
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  exec redis-server "$@" --protected-mode no
fi
exec "$@"
