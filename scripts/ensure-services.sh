#!/usr/bin/env bash
# Makes sure PostgreSQL (with pgvector installable), Redis and NATS with JetStream answer at
# the configured URLs, starting what is missing. Idempotent.
#
#   DATABASE_URL  default postgresql://postgres@127.0.0.1:5432/mapi
#   REDIS_URL     default redis://127.0.0.1:6379
#   NATS_URL      default nats://127.0.0.1:4222
#   WAIT_SECONDS  how long to wait for a started service (default 30)
#
# A service that is down on a local host (127.0.0.1/localhost/::1) is started with
# `docker compose up -d <service>` when a Docker engine answers, else from the locally
# installed binaries (installed with apt-get when missing and running as root).
set -euo pipefail

DATABASE_URL=${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/mapi}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
WAIT_SECONDS=${WAIT_SECONDS:-30}
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(dirname "$SCRIPT_DIR")

log() { echo "ensure-services: $*"; }
fail() { echo "ensure-services: ERROR: $*" >&2; exit 1; }

# Hides the password in scheme://user:password@host URLs.
mask() { sed -E 's#(//[^:/@]*):[^@/]*@#\1:****@#' <<<"$1"; }

# url_part URL host|port|path  (path without the leading slash and without ?query)
url_part() {
  local rest=${1#*://} hostport
  rest=${rest##*@}                        # drop user:password@
  hostport=${rest%%[/?]*}
  case $2 in
    host) if [[ $hostport == \[* ]]; then hostport=${hostport#[}; echo "${hostport%%]*}"
          else echo "${hostport%%:*}"; fi ;;
    port) [[ $hostport =~ :([0-9]+)$ ]] && echo "${BASH_REMATCH[1]}" || echo "" ;;
    path) [[ $rest == */* ]] && { rest=${rest#*/}; echo "${rest%%\?*}"; } || echo "" ;;
  esac
}

is_local() { [[ $1 == 127.0.0.1 || $1 == localhost || $1 == ::1 ]]; }

# wait_until SECONDS CMD...: polls CMD once a second.
wait_until() {
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do (( SECONDS < deadline )) || return 1; sleep 1; done
}

docker_available() { command -v docker >/dev/null && docker info >/dev/null 2>&1; }

compose_up() {
  [[ -f $REPO_ROOT/docker-compose.yml || -f $REPO_ROOT/compose.yaml || -f $REPO_ROOT/docker-compose.yaml || -f $REPO_ROOT/compose.yml ]] ||
    fail "a Docker engine answers but there is no compose file in $REPO_ROOT"
  log "starting '$1' with docker compose"
  (cd "$REPO_ROOT" && docker compose up -d "$1")
}

APT_UPDATED=
# ensure_binary BINARY PACKAGE: installs PACKAGE with apt-get when BINARY (a command name,
# or an absolute path that may hold a glob) is missing.
ensure_binary() {
  if [[ $1 == /* ]]; then compgen -G "$1" >/dev/null && return 0
  elif command -v "$1" >/dev/null; then return 0; fi
  if [[ $(id -u) -ne 0 ]]; then
    fail "$1 is not installed. Run: sudo apt-get update && sudo apt-get install -y $2   (then run this script again)"
  fi
  if ! apt-cache policy "$2" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    [[ -n $APT_UPDATED ]] || { apt-get update -qq; APT_UPDATED=1; }
    apt-cache policy "$2" 2>/dev/null | grep -q 'Candidate: [0-9]' ||
      fail "package '$2' is not available from the configured apt sources; install $1 by other means (for NATS: the release binary from https://github.com/nats-io/nats-server/releases, or Docker image 'nats')"
  fi
  [[ -n $APT_UPDATED ]] || { apt-get update -qq; APT_UPDATED=1; }
  log "installing $2 with apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
}

# ---------------------------------------------------------------- PostgreSQL
pg_up() { pg_isready -q -d "$DATABASE_URL" -t 2; }

start_postgres() {
  ensure_binary '/usr/lib/postgresql/*/bin/postgres' postgresql
  local port=$1 ver name
  # The cluster that listens on the configured port, else the first one.
  read -r ver name < <(pg_lsclusters -h | awk -v p="$port" '$3==p {print $1, $2; f=1; exit} END {if (!f) exit 1}' ||
                       pg_lsclusters -h | awk 'NR==1 {print $1, $2}') || true
  [[ -n ${ver:-} ]] || fail "postgresql is installed but has no cluster; create one: pg_createcluster --start $(ls /usr/lib/postgresql | sort -n | tail -1) main -p $port"
  log "starting PostgreSQL cluster $ver/$name"
  pg_ctlcluster --skip-systemctl-redirect "$ver" "$name" start
}

ensure_postgres() {
  local host port
  host=$(url_part "$DATABASE_URL" host); port=$(url_part "$DATABASE_URL" port)
  ensure_binary pg_isready postgresql-client
  if pg_up; then log "PostgreSQL is up at $(mask "$DATABASE_URL")"; return; fi
  is_local "$host" || fail "PostgreSQL at $(mask "$DATABASE_URL") does not answer, and it is not on this host"
  if docker_available; then compose_up postgres; else start_postgres "${port:-5432}"; fi
  wait_until "$WAIT_SECONDS" pg_up || fail "PostgreSQL at $(mask "$DATABASE_URL") did not answer within ${WAIT_SECONDS}s (see /var/log/postgresql/)"
  log "PostgreSQL started at $(mask "$DATABASE_URL")"
}

# DATABASE_URL with its database replaced by 'postgres' (for CREATE DATABASE).
admin_url() {
  local db; db=$(url_part "$DATABASE_URL" path)
  local base=${DATABASE_URL%%\?*} query=
  [[ $DATABASE_URL == *\?* ]] && query="?${DATABASE_URL#*\?}"
  [[ -n $db ]] && base=${base%/*}
  echo "$base/postgres$query"
}

psql_q() { psql "$1" -X -q -v ON_ERROR_STOP=1 -At -c "$2"; }

ensure_database() {
  local db out; db=$(url_part "$DATABASE_URL" path)
  [[ -n $db ]] || fail "DATABASE_URL names no database: $(mask "$DATABASE_URL")"
  out=$(psql_q "$(admin_url)" "SELECT 1 FROM pg_database WHERE datname = '${db//\'/\'\'}'" 2>&1) ||
    fail "cannot query PostgreSQL as given in $(mask "$DATABASE_URL"): $out
  (a fresh Debian cluster asks for a password on 127.0.0.1: put it in DATABASE_URL, or allow 'trust' for 127.0.0.1 in pg_hba.conf on a dev machine)"
  if [[ $out == 1 ]]; then log "database '$db' exists"; return; fi
  psql_q "$(admin_url)" "CREATE DATABASE \"${db//\"/\"\"}\"" >/dev/null || fail "could not create database '$db'"
  log "created database '$db'"
}

vector_available() { [[ $(psql_q "$DATABASE_URL" "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'") == 1 ]]; }

ensure_vector() {
  local host err major
  host=$(url_part "$DATABASE_URL" host)
  if ! vector_available; then
    is_local "$host" && [[ -d /usr/lib/postgresql ]] ||
      fail "the PostgreSQL server at $(mask "$DATABASE_URL") has no pgvector extension; install it there (or use the pgvector/pgvector Docker image)"
    major=$(psql_q "$DATABASE_URL" "SELECT current_setting('server_version_num')::int / 10000")
    log "pgvector is not installed for PostgreSQL $major; building it"
    "$SCRIPT_DIR/ensure-pgvector.sh" "$major" || fail "could not install pgvector (messages above)"
  fi
  err=$(psql_q "$DATABASE_URL" "CREATE EXTENSION IF NOT EXISTS vector" 2>&1) ||
    fail "CREATE EXTENSION vector failed in $(mask "$DATABASE_URL"): $err
  (pgvector is not a trusted extension: the role needs superuser, or a superuser must create it)"
  log "pgvector $(psql_q "$DATABASE_URL" "SELECT extversion FROM pg_extension WHERE extname = 'vector'") is available"
}

# ---------------------------------------------------------------- Redis
redis_up() { [[ $(redis-cli -u "$REDIS_URL" ping 2>/dev/null) == PONG ]]; }

ensure_redis() {
  local host port
  host=$(url_part "$REDIS_URL" host); port=$(url_part "$REDIS_URL" port)
  ensure_binary redis-cli redis-tools
  if redis_up; then log "Redis is up at $(mask "$REDIS_URL")"; return; fi
  is_local "$host" || fail "Redis at $(mask "$REDIS_URL") does not answer, and it is not on this host"
  if docker_available; then compose_up redis; else
    ensure_binary redis-server redis-server
    mkdir -p /var/lib/redis /var/log/redis
    log "starting redis-server on port ${port:-6379}"
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "${port:-6379}" --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log
  fi
  wait_until "$WAIT_SECONDS" redis_up || fail "Redis at $(mask "$REDIS_URL") did not answer within ${WAIT_SECONDS}s (see /var/log/redis/ci.log)"
  log "Redis started at $(mask "$REDIS_URL")"
}

# ---------------------------------------------------------------- NATS
# Prints the server's INFO line (empty when nothing answers).
nats_info() {
  local host port
  host=$(url_part "$NATS_URL" host); port=$(url_part "$NATS_URL" port)
  timeout 5 bash -c 'exec 3<>"/dev/tcp/$1/$2" && IFS= read -r -t 3 line <&3 && echo "$line"' _ "$host" "${port:-4222}" 2>/dev/null || true
}
nats_up() { [[ $(nats_info) == INFO* ]]; }

check_jetstream() {
  [[ $(nats_info) == *'"jetstream":true'* ]] && return
  local port; port=$(url_part "$NATS_URL" port)
  fail "NATS at $(mask "$NATS_URL") runs WITHOUT JetStream. Restart nats-server with JetStream enabled,
  e.g. stop the running nats-server (by its pid) and run:
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p ${port:-4222} -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  (or add 'jetstream: enabled' to its config file; in docker compose pass '-js' as the command)"
}

ensure_nats() {
  local host port
  host=$(url_part "$NATS_URL" host); port=$(url_part "$NATS_URL" port)
  if nats_up; then check_jetstream; log "NATS is up at $(mask "$NATS_URL") with JetStream"; return; fi
  is_local "$host" || fail "NATS at $(mask "$NATS_URL") does not answer, and it is not on this host"
  if docker_available; then compose_up nats; else
    ensure_binary /usr/sbin/nats-server nats-server
    port=${port:-4222}
    local sfx=; [[ $port == 4222 ]] || sfx=-$port   # a server on another port gets its own files
    mkdir -p "/var/lib/nats-server$sfx"
    log "starting nats-server with JetStream on port $port"
    start-stop-daemon --start --oknodo --background --make-pidfile --pidfile "/run/nats-server$sfx.pid" \
      --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p "$port" -js -sd "/var/lib/nats-server$sfx" -l "/var/log/nats-server$sfx.log"
  fi
  wait_until "$WAIT_SECONDS" nats_up || fail "NATS at $(mask "$NATS_URL") did not answer within ${WAIT_SECONDS}s (see /var/log/nats-server.log)"
  check_jetstream
  log "NATS started at $(mask "$NATS_URL") with JetStream"
}

ensure_postgres
ensure_database
ensure_vector
ensure_redis
ensure_nats
log "all services ready"
