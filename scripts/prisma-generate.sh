#!/usr/bin/env bash
# Generates the Prisma client into libs/db/src/generated/prisma. Prisma's native schema engine cannot
# be downloaded on machines that reach only the npm registry; `prisma generate` does not need it
# when PRISMA_SCHEMA_ENGINE_BINARY points anywhere, and the generated client runs on @prisma/adapter-pg.
set -euo pipefail
cd "$(dirname "$0")/.."
export PRISMA_SCHEMA_ENGINE_BINARY="${PRISMA_SCHEMA_ENGINE_BINARY:-/dev/null}"
export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/mapi}"
export PRISMA_HIDE_UPDATE_MESSAGE=1 CHECKPOINT_DISABLE=1
npx prisma generate >/dev/null
echo "prisma client generated in libs/db/src/generated/prisma"
