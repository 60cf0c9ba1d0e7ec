# syntax=docker/dockerfile:1
# One image for every app; the command picks the app: `node apps/<app>/dist/main.js` (see
# docker-compose.yml and deploy/), `node libs/db/dist/migrate-cli.js` (migrations),
# `node apps/admin-cli/dist/main.js <command>` (admin CLI).
#
# Two ways to build it (docs/services/deployment.md, "Building the image"):
# - with a registry (Docker, BuildKit): `docker build -t mapi:dev .` — the build stage installs,
#   generates the Prisma client, builds every project and assembles the runtime tree;
# - without one (podman, these machines): `bash scripts/build-image.sh` assembles the same tree on the
#   host (scripts/image-tree.js over the built checkout) and builds with `--build-context tree=<it>`
#   and BASE_IMAGE a local Debian + Node image (scripts/build-base-image.sh).
ARG NODE_VERSION=24
# The runtime's base: the official Node image of that major, or a local one of the same layout
# (Debian bookworm, node on PATH, user `node` uid 1000).
ARG BASE_IMAGE=node:${NODE_VERSION}-bookworm-slim

# Build: every dependency, the Prisma client, an swc build of every project, then the runtime tree:
# /out/app (each project's package.json and dist/, no sources, no tests; prisma/ migrations) and
# /out/deps/node_modules (production dependencies only, whose @mapi/* links point into /out/app).
FROM ${BASE_IMAGE} AS build
WORKDIR /src
ENV NX_DAEMON=false NX_NO_CLOUD=true CI=true
COPY . .
# npm install (not npm ci): see scripts/install.sh; the lock file still pins every version.
RUN --mount=type=cache,target=/root/.npm \
    npm install --no-audit --no-fund --loglevel=error \
 && bash scripts/prisma-generate.sh \
 && npx nx run-many -t build --outputStyle=static \
 && node scripts/image-tree.js /src /out

# The runtime tree. `--build-context tree=<dir>` puts a tree assembled elsewhere in its place (its
# out/app and out/deps; scripts/build-image.sh), and then the build stage is not run.
FROM build AS tree

# Runtime: Node LTS on Debian bookworm, no build tools, files owned by root and read-only to the
# app's user, which is not root (uid 1000, `node`).
FROM ${BASE_IMAGE} AS runtime
ENV NODE_ENV=production NODE_OPTIONS=--enable-source-maps
# Writable places for the non-root user: /data (MEDIA_STORAGE_ROOT=/data/files; a volume in compose and
# Kubernetes) and /tmp.
RUN mkdir -p /data && chown 1000:1000 /data
WORKDIR /app
# Dependencies first: a source change rebuilds only the small layer after them.
COPY --from=tree /out/deps/ ./
COPY --from=tree /out/app/ ./
USER 1000:1000
EXPOSE 8080 8081 8090
# Last, so a new revision reuses every layer above.
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG CREATED=""
ARG BASE_IMAGE
LABEL org.opencontainers.image.title="mapi" \
      org.opencontainers.image.description="Messaging automation API: every app, one image (the command picks it)" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.base.name="${BASE_IMAGE}"
CMD ["node", "apps/api-gateway/dist/main.js"]
