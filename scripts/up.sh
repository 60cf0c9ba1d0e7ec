#!/usr/bin/env bash
# Brings the whole stack up on this machine: dependencies, Postgres (with pgvector), Redis and NATS
# (found at the configured URLs or started), migrations, a demo organization with a token and data,
# and every app in the background (the web console too, on CONSOLE_PORT). Prints the base URL, the
# demo token, the console's address and its demo sign-in. `scripts/down.sh` stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/mapi}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export NATS_URL="${NATS_URL:-nats://127.0.0.1:4222}"
export PORT="${PORT:-8080}"
CONSOLE_PORT="${CONSOLE_PORT:-3000}"
# Invitation links point at the console served below.
export CONSOLE_BASE_URL="${CONSOLE_BASE_URL:-http://localhost:$CONSOLE_PORT/console}"
# Links to message files go through the console (it forwards /app/media), so its pages can show them.
export MEDIA_BASE_URL="${MEDIA_BASE_URL:-http://localhost:$CONSOLE_PORT}"
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

# Every service app (apps/* but the gateway and the CLI), each with its health port from 8181 on.
port=8181
ready=()
for dir in apps/*/; do
  app=$(basename "$dir")
  case "$app" in api-gateway|admin-cli|console) continue ;; esac
  [ -f "apps/$app/dist/main.js" ] || { echo "skipping $app (not built)"; continue; }
  start "$app" HEALTH_PORT=$port HEALTH_HOST=127.0.0.1
  url="http://127.0.0.1:$port/health/ready"
  [ "$app" = media ] && url="http://127.0.0.1:${MEDIA_HTTP_PORT:-8090}/health/ready"
  ready+=("$app=$url")
  port=$((port + 1))
done
start api-gateway
# The web console: its pages, /v1 and the realtime socket on one origin (the gateway behind it).
start console PORT="$CONSOLE_PORT" HOST=127.0.0.1 HEALTH_PORT=$port HEALTH_HOST=127.0.0.1 CONSOLE_GATEWAY_URL="http://127.0.0.1:$PORT" \
  CONSOLE_MEDIA_URL="http://127.0.0.1:${MEDIA_HTTP_PORT:-8090}"
ready+=("console=http://127.0.0.1:$port/health/ready")
for entry in "${ready[@]}"; do wait_ready "${entry%%=*}" "${entry#*=}"; done
wait_ready api-gateway "http://127.0.0.1:$PORT/health/ready"

seed=$(node apps/admin-cli/dist/main.js seed:demo --json)
field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log(eval("j."+process.argv[1])??"")})' "$1" <<<"$seed"; }
token=$(field token)
phone=$(field 'phones[0].phone_id')
chat=$(field 'chats[0].chat_id')
# The seed's console sign-in, when it has one (seed:demo --json: console.email / console.password).
console_email=$(field 'console?.email')
console_password=$(field 'console?.password')
if [ -n "$console_email" ]; then
  console_signin="$console_email / $console_password"
else
  console_signin="none in this seed: invite one with POST /v1/members/invite (see docs/services/console.md)"
fi
cat <<MSG

The stack is up (logs and pids in $RUN/; stop it with scripts/down.sh).
  Base URL:    http://localhost:$PORT/v1
  API docs:    http://localhost:$PORT/v1/docs
  Demo token:  $token
  Demo phone:  $phone (sandbox network, connected)
  Console:     http://localhost:$CONSOLE_PORT/console/
  Sign in as:  $console_signin
Try:
  export TOKEN=$token
  curl -H "Authorization: Bearer \$TOKEN" -H "x-phone: $phone" "http://localhost:$PORT/v1/chats/$chat/messages?limit=5"
  # a customer writes to the demo phone (sandbox network), then read it back:
  curl -X POST -H "Authorization: Bearer \$TOKEN" -H "x-phone: $phone" -H "content-type: application/json" \\
       -d '{"chat_id":"447700900123","body":"Hello!"}' http://localhost:$PORT/v1/sandbox/messages
  curl -H "Authorization: Bearer \$TOKEN" -H "x-phone: $phone" http://localhost:$PORT/v1/chats/447700900123/messages
  node apps/admin-cli/dist/main.js help
MSG
