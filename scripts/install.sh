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
# The commit-msg hook (scripts/git-hooks/commit-msg; CONTRIBUTING.md, "Commits"): set up only in this
# checkout's own git work tree (not a copy without .git, not a parent repository) whose hooks are not
# set up otherwise — no core.hooksPath yet and no hook of its own in .git/hooks, which core.hooksPath
# would silently turn off. To opt out, point core.hooksPath elsewhere (e.g. .git/hooks).
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ] && [ -z "$(git config core.hooksPath || true)" ] \
  && [ -z "$(find "$(git rev-parse --git-path hooks)" -maxdepth 1 -type f ! -name '*.sample' 2>/dev/null || true)" ]; then
  if git config core.hooksPath scripts/git-hooks 2>/dev/null; then
    echo "installed the commit-msg hook (git config core.hooksPath scripts/git-hooks; npm run hooks does it by hand)"
  fi
fi
