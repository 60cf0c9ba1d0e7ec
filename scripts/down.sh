#!/usr/bin/env bash
# Stops the apps scripts/up.sh started (SIGTERM: they finish what is under way), leaving the servers.
set -uo pipefail
cd "$(dirname "$0")/.."
for pidfile in .run/*.pid; do
  [ -f "$pidfile" ] || continue
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    [ "${1:-}" = --quiet ] || echo "stopped $(basename "$pidfile" .pid)"
  fi
  rm -f "$pidfile"
done
