#!/bin/sh
# The data image's Postgres (scripts/build-data-image.sh), as the official image starts: an empty
# $PGDATA is initialised with POSTGRES_PASSWORD for the postgres user (scram over TCP, trust on the
# socket inside the container) and POSTGRES_DB created; then the server runs as postgres, listening
# on every address of the container.
set -eu
PGDATA="${PGDATA:-/var/lib/postgresql/data}"
export PGDATA
mkdir -p "$PGDATA" /run/postgresql
chown -R postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required to initialise the database}"
  pwfile=$(mktemp)
  printf '%s' "$POSTGRES_PASSWORD" >"$pwfile"
  chown postgres "$pwfile"
  runuser -u postgres -- initdb -D "$PGDATA" -U postgres --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  db="${POSTGRES_DB:-postgres}"
  if [ "$db" != postgres ]; then
    runuser -u postgres -- pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    runuser -u postgres -- psql -v ON_ERROR_STOP=1 -q -d postgres -c "CREATE DATABASE \"$db\""
    runuser -u postgres -- pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  echo "postgres-entrypoint: initialised $PGDATA (database $db)"
fi
exec runuser -u postgres -- postgres -D "$PGDATA" -c listen_addresses='*'
