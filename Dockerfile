# One image for every app: `node apps/<app>/dist/main.js` selects the app (see docker-compose.yml).
# Not built on the development machines (no Docker engine there); see docs/operations.md.
FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund \
 && bash scripts/prisma-generate.sh \
 && NX_DAEMON=false npx nx run-many -t build --outputStyle=static \
 && npm prune --omit=dev

FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /src/package.json ./
COPY --from=build --chown=node:node /src/node_modules node_modules
COPY --from=build --chown=node:node /src/prisma prisma
COPY --from=build --chown=node:node /src/apps apps
COPY --from=build --chown=node:node /src/libs libs
USER node
EXPOSE 8080
CMD ["node", "apps/api-gateway/dist/main.js"]
