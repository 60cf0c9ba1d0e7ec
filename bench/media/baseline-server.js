#!/usr/bin/env node
'use strict';
/**
 * Baseline for the 1000-URL batch: ONE Node process (plain Fastify) that does the media service's
 * work for POST /v1/media/migrate-url/batch and nothing else: JSON body parse, the contract's zod
 * body schema, the same use case (MigrateMediaUrlsBatch with the real Prisma repositories, one jose
 * token), JSON reply. No auth, no rate limit, no NATS hop, no OpenTelemetry, no per-request log.
 * The gateway path's cost over this is what the hops and the gateway add.
 *
 * Env: PORT, DATABASE_URL, ORG_ID (the caller's organization), MEDIA_BASE_URL, MEDIA_LEGACY_STORAGE_URL,
 * MEDIA_JWT_KEYS. Prints "listening" when ready.
 */
const Fastify = require('fastify');
const { MigrateMediaUrlsBatchBody } = require('@mapi/contracts');
const { createPrismaClient } = require('@mapi/db');
const {
  MediaLinks,
  MediaLinkMigrator,
  MediaSettingsRepository,
  PublicObjectRepository,
  MediaTokenService,
  MigrateMediaUrlsBatch,
} = require('@mapi/media-feature/internals');

async function main() {
  const prisma = createPrismaClient({ url: process.env.DATABASE_URL, poolSize: 10 });
  const links = new MediaLinks({
    mediaBaseUrl: process.env.MEDIA_BASE_URL,
    legacyStorageUrl: process.env.MEDIA_LEGACY_STORAGE_URL,
    buckets: ['message-media', 'kb-attachments'],
  });
  const keys = JSON.parse(process.env.MEDIA_JWT_KEYS).map((k) => ({ kid: k.kid, secret: k.secret }));
  const usecase = new MigrateMediaUrlsBatch(
    new MediaLinkMigrator(links, new MediaSettingsRepository(prisma)),
    new MediaTokenService(keys),
    new PublicObjectRepository(prisma),
  );
  const ctx = { org_id: process.env.ORG_ID, request_id: 'baseline' };
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
  app.post('/v1/media/migrate-url/batch', async (req, reply) => {
    const body = MigrateMediaUrlsBatchBody.safeParse(req.body);
    if (!body.success) return reply.code(422).send({ error: 'invalid body' });
    const result = await usecase.execute({ ctx, body: body.data });
    return reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(result));
  });
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  console.log('listening');
  process.once('SIGTERM', () =>
    app
      .close()
      .then(() => prisma.$disconnect())
      .then(() => process.exit(0)),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
