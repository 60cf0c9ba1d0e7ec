#!/usr/bin/env bash
# Installs npm dependencies when they are missing or older than package-lock.json, and generates the
# Prisma client when it is missing or older than a file of prisma/schema/.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # npm install, not npm ci: npm 11 leaves other platforms' optional binaries (@swc/core-darwin-*, …)
  # out of the lock file and then npm ci refuses it as out of sync. The lock still pins every version.
  echo "installing npm dependencies…"
  npm install --no-audit --no-fund --loglevel=error
fi
client=libs/db/src/generated/prisma/client.ts
if [ ! -f "$client" ] || [ -n "$(find prisma/schema -newer "$client" -name '*.prisma')" ]; then
  bash scripts/prisma-generate.sh
fi
