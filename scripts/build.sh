#!/usr/bin/env bash
# Compiles every app and lib with swc into its dist/ (Nx runs the projects in dependency order, cached).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
NX_DAEMON=false npx nx run-many -t build --outputStyle=static >/tmp/mapi-build.log 2>&1 || { cat /tmp/mapi-build.log; exit 1; }
echo "built $(ls -d apps/*/dist libs/*/dist | wc -l) projects"
