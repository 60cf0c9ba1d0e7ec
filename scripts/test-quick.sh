#!/usr/bin/env bash
# The quick loop: the unit and integration tests of the projects a change touches (Nx's affected
# graph: the changed projects and every project that depends on them), without the install, full
# build, type-check and lint that `npm test` runs first. For the edit-test cycle; CI runs `npm test`.
#
#   npm run test:quick                  changes since the merge base with main, committed or not
#   QUICK_BASE=HEAD~1 npm run test:quick   another base
#   npm run test:quick -- -t 'archive'  extra arguments go to Jest
#
# Postgres, Redis and NATS must answer (scripts/ensure-services.sh starts them). End-to-end tests are
# left out: they start built apps (npm run build, then npx jest test/e2e/<file>).
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false
export DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/mapi}"
export TEST_ADMIN_DATABASE_URL="${TEST_ADMIN_DATABASE_URL:-$(node -e 'const u=new URL(process.argv[1]);u.pathname="/postgres";console.log(u.toString())' "$DATABASE_URL")}"
base="${QUICK_BASE:-$(git merge-base HEAD main 2>/dev/null || echo HEAD)}"

changed=$( { git diff --name-only "$base"; git ls-files --others --exclude-standard; } | sort -u)
if [ -z "$changed" ]; then
  echo "test:quick: nothing changed since $base"
  exit 0
fi

# Project roots of the affected projects (uncommitted changes count: Nx compares the working tree with the base).
affected=$(npx nx show projects --affected --base="$base" --json)
roots=$(node -e '
  const { readFileSync, readdirSync, existsSync } = require("node:fs");
  const names = new Set(JSON.parse(process.argv[1]));
  for (const dir of ["apps", "libs", "tools"]) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir)) {
      const file = `${dir}/${entry}/project.json`;
      if (existsSync(file) && names.has(JSON.parse(readFileSync(file, "utf8")).name)) console.log(`${dir}/${entry}/`);
    }
  }
  if (existsSync("bench/project.json") && names.has(JSON.parse(readFileSync("bench/project.json", "utf8")).name)) console.log("bench/");
' "$affected" | sort -u)

# Files outside the projects: the workspace checks (test/boundaries, test/deploy) when their subject
# changed, and a changed test file of test/ itself.
paths=($roots)
# bench/ has no tests of its own: test/boundaries lints it (module boundaries, no deep library paths).
if grep -qE '^(prisma/|libs/contracts/|test/boundaries/|eslint\.config|apps/[^/]+/project\.json|libs/[^/]+/project\.json|bench/project\.json|bench/.*\.js$)' <<<"$changed"; then paths+=(test/boundaries/); fi
if grep -qE '^(deploy/|docker-compose\.yml|test/deploy/)' <<<"$changed"; then paths+=(test/deploy/); fi
while read -r file; do
  case "$file" in test/e2e/*) ;; test/*.spec.ts | test/*.int-spec.ts) [ -f "$file" ] && paths+=("$file") ;; esac
done <<<"$changed"

if [ ${#paths[@]} -eq 0 ]; then
  echo "test:quick: no tests for the changes since $base"
  exit 0
fi
echo "test:quick: since $(git rev-parse --short "$base"): ${paths[*]}"
# The global setup loads @mapi/testing from its build: build it (and what it needs) when a source is
# newer; Nx's cache makes this a no-op when nothing changed.
npx nx run testing:build --outputStyle=static >/tmp/mapi-quick-build.log 2>&1 || { cat /tmp/mapi-quick-build.log; exit 1; }
npx jest --selectProjects unit integration "$@" -- "${paths[@]}"
