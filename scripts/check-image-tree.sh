#!/usr/bin/env bash
# Starts every app from the image's runtime tree without a container: the tree the Dockerfile copies
# (scripts/image-tree.js over the built checkout: each project's package.json and dist/, prisma/, the
# production node_modules), the migrations run from it, then every app of apps/ (but the admin CLI,
# which must merely run) with NODE_ENV=production, each checked to turn ready. A quick look at the
# image's contents without podman; the image itself, built and run, is test/e2e/image.e2e-spec.ts
# (scripts/build-image.sh). Needs a built tree (npm run build) and the local Postgres, Redis and NATS.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
WORK=$(mktemp -d /tmp/mapi-image-tree-XXXXXX)
DB=mapi_image_tree_$$
ADMIN_URL=${TEST_ADMIN_DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/postgres}
pids=()
cleanup() {
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
  sleep 1
  psql "$ADMIN_URL" -qc "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "image tree: assembling the runtime tree in $WORK"
mkdir -p "$WORK/files"
node scripts/image-tree.js . "$WORK" || exit 1
# As the image lays it out: /app holds both parts.
mv "$WORK/app" "$WORK/out" && mv "$WORK/deps/node_modules" "$WORK/out/node_modules" || exit 1
echo "image tree: $(du -sh "$WORK/out" | cut -f1), production dependencies only"

cd "$WORK/out"
psql "$ADMIN_URL" -qc "CREATE DATABASE $DB" || exit 1
export NODE_ENV=production NODE_OPTIONS=--enable-source-maps LOG_LEVEL=warn NAMESPACE=imagetree$$
export DATABASE_URL=$(node -e 'const u=new URL(process.argv[1]);u.pathname="/"+process.argv[2];console.log(u.toString())' "$ADMIN_URL" "$DB")
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379} NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
export MEDIA_JWT_KEYS='[{"kid":"k1","secret":"image-tree-check-secret-0123456789abcdef"}]' MEDIA_STORAGE_ROOT="$WORK/files"
export BAILEYS_AUTH_KEY=$(openssl rand -base64 32)
node libs/db/dist/migrate-cli.js >"$WORK/migrate.log" 2>&1 || { echo "image tree: migrations failed"; tail -20 "$WORK/migrate.log"; exit 1; }

# Every app of the tree with a main.js but the admin CLI.
apps=()
for main in apps/*/dist/main.js; do app=${main#apps/}; app=${app%%/*}; [ "$app" = admin-cli ] || [ "$app" = api-gateway ] || apps+=("$app"); done
ports=$(node -e 'const n=require("net");(async()=>{const o=[];for(let i=0;i<+process.argv[1];i++){o.push(await new Promise(r=>{const s=n.createServer().listen(0,"127.0.0.1",()=>{const p=s.address().port;s.close(()=>r(p));});}))}console.log(o.join(" "))})()' $((2 * ${#apps[@]} + 2)))
set -- $ports
declare -A health
media_http=$1; shift # the media app serves its health on its own HTTP port (with /app/media)
for app in "${apps[@]}"; do
  health[$app]=$1; http=$2; shift 2 # HTTP port too: the console serves its pages on PORT
  HOST=127.0.0.1 PORT=$http HEALTH_HOST=127.0.0.1 HEALTH_PORT=${health[$app]} MEDIA_HTTP_HOST=127.0.0.1 MEDIA_HTTP_PORT=$media_http node "apps/$app/dist/main.js" >"$WORK/$app.log" 2>&1 &
  pids+=($!)
done
health[media]=$media_http
health[api-gateway]=$1
HOST=127.0.0.1 PORT=${health[api-gateway]} node apps/api-gateway/dist/main.js >"$WORK/api-gateway.log" 2>&1 &
pids+=($!)

failed=0
for app in "${apps[@]}" api-gateway; do
  status=000
  for _ in $(seq 1 60); do
    status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${health[$app]}/health/ready")
    [ "$status" = 200 ] && break
    sleep 0.5
  done
  if [ "$status" = 200 ]; then echo "image tree: $app ready"; else echo "image tree: $app NOT ready ($status)"; tail -20 "$WORK/$app.log"; failed=1; fi
done
node apps/admin-cli/dist/main.js --help >/dev/null 2>&1 && echo "image tree: admin-cli runs" || { echo "image tree: admin-cli failed"; failed=1; }
exit $failed
