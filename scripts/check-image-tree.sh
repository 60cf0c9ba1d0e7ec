#!/usr/bin/env bash
# Replays the Dockerfile without a Docker engine (these machines have none): the build stage's
# `npm prune --omit=dev` on a copy of the built tree, the runtime stage's assembly of /out (each
# project's package.json and dist/, prisma/, node_modules), then runs the migrations and starts every
# app from that tree with NODE_ENV=production and checks that each one turns ready. It shows that the
# image's contents (production dependencies only) are enough to run; it does not test the base image.
# Needs a built tree (npm run build) and the local Postgres, Redis and NATS. Takes about a minute.
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

echo "image tree: copying the built tree to $WORK"
mkdir -p "$WORK/src" "$WORK/out" "$WORK/files"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$WORK/src"
cp -a node_modules "$WORK/src/"
for d in apps/* libs/*; do [ -d "$d/dist" ] && cp -R "$d/dist" "$WORK/src/$d/dist"; done
(cd "$WORK/src" && npm prune --omit=dev --no-audit --no-fund --loglevel=error) || exit 1
# The runtime stage, as in the Dockerfile.
(cd "$WORK/src" && cp package.json "$WORK/out/" && cp -R prisma "$WORK/out/prisma" \
  && for dir in apps/* libs/*; do mkdir -p "$WORK/out/$dir" && cp "$dir/package.json" "$WORK/out/$dir/" \
       && if [ -d "$dir/dist" ]; then cp -R "$dir/dist" "$WORK/out/$dir/dist"; fi; done \
  && cp -R node_modules "$WORK/out/node_modules") || exit 1
echo "image tree: $(du -sh "$WORK/out" | cut -f1), production dependencies only"

cd "$WORK/out"
psql "$ADMIN_URL" -qc "CREATE DATABASE $DB" || exit 1
export NODE_ENV=production NODE_OPTIONS=--enable-source-maps LOG_LEVEL=warn NAMESPACE=imagetree$$
export DATABASE_URL=$(node -e 'const u=new URL(process.argv[1]);u.pathname="/"+process.argv[2];console.log(u.toString())' "$ADMIN_URL" "$DB")
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379} NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
export MEDIA_JWT_KEYS='[{"kid":"k1","secret":"image-tree-check-secret-0123456789abcdef"}]' MEDIA_STORAGE_ROOT="$WORK/files"
export BAILEYS_AUTH_KEY=$(openssl rand -base64 32)
node libs/db/dist/migrate-cli.js >"$WORK/migrate.log" 2>&1 || { echo "image tree: migrations failed"; tail -20 "$WORK/migrate.log"; exit 1; }

ports=$(node -e 'const n=require("net");(async()=>{const o=[];for(let i=0;i<13;i++){o.push(await new Promise(r=>{const s=n.createServer().listen(0,"127.0.0.1",()=>{const p=s.address().port;s.close(()=>r(p));});}))}console.log(o.join(" "))})()')
set -- $ports
apps=(chats phones groups queue knowledge-base embedding-worker webhooks-dispatcher media inbox members automation importer)
declare -A health
media_http=$1; shift # the media app serves its health on its own HTTP port (with /app/media)
for app in "${apps[@]}"; do
  health[$app]=$1; shift
  HEALTH_HOST=127.0.0.1 HEALTH_PORT=${health[$app]} MEDIA_HTTP_HOST=127.0.0.1 MEDIA_HTTP_PORT=$media_http node "apps/$app/dist/main.js" >"$WORK/$app.log" 2>&1 &
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
