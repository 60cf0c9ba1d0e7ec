# syntax=docker/dockerfile:1
# One image for every app; the command picks the app: `node apps/<app>/dist/main.js` (see
# docker-compose.yml and deploy/), `node libs/db/dist/migrate-cli.js` (migrations),
# `node apps/admin-cli/dist/main.js <command>` (admin CLI).
# Not built on the development machines (no Docker engine there); test/deploy checks its shape and
# scripts/check-image-tree.sh replays its stages without Docker and starts every app from the result.
ARG NODE_VERSION=24

# Build: every dependency, the Prisma client, an swc build of every project, then only the
# production dependencies are kept.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /src
ENV NX_DAEMON=false NX_NO_CLOUD=true CI=true
COPY . .
# npm install (not npm ci): see scripts/install.sh; the lock file still pins every version.
RUN --mount=type=cache,target=/root/.npm \
    npm install --no-audit --no-fund --loglevel=error \
 && bash scripts/prisma-generate.sh \
 && npx nx run-many -t build --outputStyle=static \
 && npm prune --omit=dev --no-audit --no-fund
# The runtime tree: each project's package.json and dist/ (no sources, no tests), the
# migrations, and node_modules (whose @mapi/* links point at those projects).
RUN mkdir -p /out \
 && cp package.json /out/ \
 && cp -R prisma /out/prisma \
 && for dir in apps/* libs/*; do \
      mkdir -p "/out/$dir" && cp "$dir/package.json" "/out/$dir/" \
      && if [ -d "$dir/dist" ]; then cp -R "$dir/dist" "/out/$dir/dist"; fi; \
    done \
 && cp -R node_modules /out/node_modules

# Runtime: Node LTS on Debian slim, no build tools, files owned by root and read-only to the
# app's user, which is not root (uid 1000, `node`).
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production NODE_OPTIONS=--enable-source-maps
WORKDIR /app
COPY --from=build /out/ ./
# Writable places for the non-root user: /data (MEDIA_STORAGE_ROOT=/data/files; a volume in compose and
# Kubernetes) and /tmp.
RUN mkdir -p /data && chown node:node /data
USER 1000:1000
EXPOSE 8080 8081 8090
CMD ["node", "apps/api-gateway/dist/main.js"]
