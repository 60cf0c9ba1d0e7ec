#!/usr/bin/env bash
# Runs every test: installs what is missing, makes sure Postgres (with pgvector), Redis and NATS
# answer (starting them if needed), builds the apps (end-to-end tests start them as processes),
# type-checks, lints (module boundaries included; Prettier's format; commit messages), then Jest's three tiers in one run.
# Extra arguments go to Jest (e.g. `npm test -- --selectProjects unit`).
set -euo pipefail
cd "$(dirname "$0")/.."
export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/mapi}"
bash scripts/install.sh
bash scripts/ensure-services.sh
# The console's browser tests drive Debian's Chromium (installed here when missing).
bash scripts/ensure-chromium.sh
# The Kafka sink tests' broker: librdkafka's mock cluster, built against Debian's librdkafka (installed here when missing).
bash scripts/ensure-kafka-mock.sh >/dev/null
# The image test (test/e2e/image.e2e-spec.ts) builds and runs the container image with podman
# (installed here when missing; where it cannot be, that test says so and is skipped).
bash scripts/ensure-podman.sh || echo "podman is not usable here: the container image test will be skipped"
# One end-to-end test runs the stack behind PgBouncer in transaction mode (installed here when missing).
bash scripts/ensure-pgbouncer.sh
# Tests make their own databases on this server; the admin connection points at its postgres database.
export TEST_ADMIN_DATABASE_URL="${TEST_ADMIN_DATABASE_URL:-$(node -e 'const u=new URL(process.argv[1]);u.pathname="/postgres";console.log(u.toString())' "$DATABASE_URL")}"
bash scripts/build.sh
echo "type-checking…"
npx tsc -p tsconfig.json --noEmit
npx tsc -p apps/console/web/tsconfig.json
if [ -f eslint.config.mjs ]; then
  echo "linting…"
  npx eslint . --cache --cache-location node_modules/.cache/eslintcache
  echo "checking the format (npm run format fixes it)…"
  npx prettier --check . --log-level warn --cache
fi
# Commit messages from the first commit that followed the rule to HEAD (CONTRIBUTING.md, "Commits").
# It reads the history, so only in this checkout's own git work tree (CI's clone is one).
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
  node scripts/check-commit-messages.js
fi
npx jest --ci "$@"
