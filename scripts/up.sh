#!/usr/bin/env bash
# Brings the whole stack up on this machine: dependencies, Postgres (with pgvector), Redis and NATS
# (found at the configured URLs or started), migrations, a demo organization with a token and data,
# and every app in the background. Prints the base URL and the demo token. `scripts/down.sh` stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/mapi}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export NATS_URL="${NATS_URL:-nats://127.0.0.1:4222}"
export PORT="${PORT:-8080}"
RUN=.run
mkdir -p "$RUN"

bash scripts/ensure-services.sh
bash scripts/build.sh
node libs/db/dist/migrate-cli.js
bash scripts/down.sh --quiet

start() { # name, extra env...
  local name=$1; shift
  env "$@" nohup node "apps/$name/dist/main.js" >"$RUN/$name.log" 2>&1 &
  echo $! >"$RUN/$name.pid"
}
wait_ready() { # name, url
  for _ in $(seq 1 100); do
    if curl -fsS -o /dev/null "$2" 2>/dev/null; then return 0; fi
    if ! kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; then echo "$1 failed to start; its log:"; tail -20 "$RUN/$1.log"; exit 1; fi
    sleep 0.2
  done
  echo "$1 not ready at $2; see $RUN/$1.log"; exit 1
}

start chats HEALTH_PORT=8181 HEALTH_HOST=127.0.0.1
start api-gateway
wait_ready chats http://127.0.0.1:8181/health/ready
wait_ready api-gateway "http://127.0.0.1:$PORT/health/ready"

token=$(node apps/admin-cli/dist/main.js seed:demo --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).token))')
cat <<MSG

The stack is up (logs and pids in $RUN/; stop it with scripts/down.sh).
  Base URL:    http://localhost:$PORT/v1
  API docs:    http://localhost:$PORT/v1/docs
  Demo token:  $token
Try:
  curl -H "Authorization: Bearer $token" http://localhost:$PORT/v1/chats/<chat_id>/messages
  node apps/admin-cli/dist/main.js help
MSG
