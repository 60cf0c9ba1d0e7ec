'use strict';
/**
 * Baseline for the messages route: ONE Node process, plain Fastify, the same work the chats service
 * does for GET /v1/chats/{chat_id}/messages — chat id normalisation and query validation with the
 * contract's schemas, MessageRepository.listByChat (the same Prisma query), mapMessage, and
 * JSON.stringify of the page — but no gateway, no NATS hop, no auth, no rate limit, no telemetry.
 *
 * Started as a child by bench/run.js with DATABASE_URL, ORG_ID, PORT, HOST, DATABASE_POOL_SIZE.
 * Prints "listening <port>" on stdout when ready; stops on SIGTERM.
 */
const Fastify = require('fastify');
const { createPrismaClient } = require('@mapi/db');
const { MessageRepository, ListChatMessages } = require('@mapi/chats-feature');
const { ListChatMessagesParams, ListChatMessagesQuery } = require('@mapi/contracts');

async function main() {
  const orgId = process.env.ORG_ID;
  if (!orgId) throw new Error('ORG_ID is required');
  const prisma = createPrismaClient({
    url: process.env.DATABASE_URL,
    poolSize: Number(process.env.DATABASE_POOL_SIZE || 10),
  });
  const useCase = new ListChatMessages(new MessageRepository(prisma));
  const ctx = { org_id: orgId, token_id: '00000000-0000-4000-8000-000000000000', phone_scope: null, phone: null };

  const app = Fastify({ logger: false });
  app.get('/v1/chats/:chat_id/messages', async (req, reply) => {
    const params = ListChatMessagesParams.safeParse(req.params);
    const query = ListChatMessagesQuery.safeParse(req.query ?? {});
    if (!params.success || !query.success) return reply.status(422).send({ error: 'validation' });
    const page = await useCase.execute({ ctx, params: params.data, query: query.data });
    // The chats service replies JSON.stringify(page) as bytes; the gateway passes them through.
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(page));
  });
  await prisma.$queryRaw`SELECT 1`;
  await app.listen({ port: Number(process.env.PORT || 0), host: process.env.HOST || '127.0.0.1' });
  process.stdout.write(`listening ${app.server.address().port}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(1);
    stopping = true;
    await app.close().catch(() => undefined);
    await prisma.$disconnect().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`baseline failed: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
