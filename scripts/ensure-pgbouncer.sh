#!/usr/bin/env bash
# Makes sure a PgBouncer in transaction mode listens on 127.0.0.1:${PGBOUNCER_PORT:-6432}, in front of the
# Postgres of DATABASE_URL (host and port; every database name passes through): the end-to-end test
# that runs the stack through a pooler (test/e2e/pgbouncer.e2e-spec.ts) needs it. Installs Debian's
# pgbouncer when missing, writes its configuration to /tmp/mapi-pgbouncer-<port> (readable by the
# postgres user wherever the checkout lives), and starts it as that user (PgBouncer refuses to run as
# root). Quiet when one already answers on the port.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${PGBOUNCER_PORT:-6432}"
url="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/mapi}"
pg_host=$(node -e 'console.log(new URL(process.argv[1]).hostname || "127.0.0.1")' "$url")
pg_port=$(node -e 'console.log(new URL(process.argv[1]).port || "5432")' "$url")
pg_user=$(node -e 'console.log(decodeURIComponent(new URL(process.argv[1]).username) || "postgres")' "$url")

answers() { PGCONNECT_TIMEOUT=2 psql -h 127.0.0.1 -p "$port" -U "$pg_user" -d pgbouncer -Atc 'SHOW VERSION' >/dev/null 2>&1; }
answers && exit 0

if ! command -v pgbouncer >/dev/null; then
  command -v apt-get >/dev/null || { echo "no pgbouncer and no apt-get: install PgBouncer (1.18 or later)" >&2; exit 1; }
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "installing pgbouncer (apt)…"
  export DEBIAN_FRONTEND=noninteractive
  # The package's own service stays off: this script starts the one it configures.
  $sudo apt-get install -y -qq --no-install-recommends pgbouncer >/dev/null 2>&1 ||
    { $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq --no-install-recommends pgbouncer >/dev/null; }
fi

dir="${TMPDIR:-/tmp}/mapi-pgbouncer-$port"
mkdir -p "$dir"
# Local development and tests only: trust, as the machine's Postgres does. deploy/components/pgbouncer
# is the production form (scram from a Secret).
cat >"$dir/pgbouncer.ini" <<EOF
[databases]
* = host=$pg_host port=$pg_port

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/userlist.txt
admin_users = $pg_user
stats_users = $pg_user
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 20
reserve_pool_size = 5
server_reset_query =
ignore_startup_parameters = extra_float_digits
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
EOF
printf '"%s" ""\n' "$pg_user" >"$dir/userlist.txt"
user=postgres
id "$user" >/dev/null 2>&1 || user="$(id -un)"
if [ "$(id -u)" = 0 ]; then
  chown -R "$user" "$dir"
  pgbouncer -d -u "$user" "$dir/pgbouncer.ini"
else
  pgbouncer -d "$dir/pgbouncer.ini"
fi
for _ in $(seq 1 50); do
  answers && { echo "ensure-pgbouncer: PgBouncer (transaction mode) is up at 127.0.0.1:$port"; exit 0; }
  sleep 0.2
done
echo "PgBouncer did not answer on 127.0.0.1:$port; its log:" >&2
tail -20 "$dir/pgbouncer.log" >&2 || true
exit 1
