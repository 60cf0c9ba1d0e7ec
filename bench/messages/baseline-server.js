'use strict';
/**
 * Baselines for the messages route: ONE Node process, plain Fastify, the same work the chats service
 * does for GET /v1/chats/{chat_id}/messages — chat id normalisation and query validation with the
 * contract's schemas, the page query, mapMessage, and JSON.stringify of the page — but no gateway, no
 * NATS hop, no auth, no rate limit, no telemetry. BASELINE_DRIVER chooses how the page is read:
 * - `prisma` (default): the service's own use case, MessageRepository.listByChat through Prisma;
 * - `raw`: the same SQL (chatPageSql) through the `pg` driver directly, the rows revived with the same
 *   messageFromJson and mapped with the same mapMessage — the read as close to the driver as it gets.
 *   With BASELINE_RAW_SQL=api (passed through from the bench's environment), `raw` runs the SQL-built
 *   page instead, as the service reads pages over 100 (chatPageSql(..., 'api'): Postgres builds each
 *   message object, parsed with JSON.parse) — the service's work, without the gateway and hop.
 *
 * Started as a child by bench/run.js with DATABASE_URL, ORG_ID, PORT, HOST, DATABASE_POOL_SIZE.
 * Prints "listening <port>" on stdout when ready; stops on SIGTERM.
 */
const Fastify = require('fastify');
const pg = require('pg');
const { serveBaseline, runBaseline } = require('../lib/serve-baseline');
const { createPrismaClient } = require('@mapi/db');
const { MessageRepository, ListChatMessages, chatPageSql, messageFromJson, mapMessage } = require('@mapi/chats-feature/internals');
const { ListChatMessagesParams, ListChatMessagesQuery, ReadyJson } = require('@mapi/contracts');

/** The page as ListChatMessages builds it, read through pg: same SQL, same row revival, same mapper. */
function rawUseCase(pool, orgId) {
  const shape = process.env.BASELINE_RAW_SQL === 'api' ? 'api' : 'row';
  return {
    async execute({ params, query }) {
      const sql = chatPageSql(
        orgId,
        { chatId: params.chat_id, phoneIds: null, member: null, offset: query.offset, limit: query.limit },
        shape,
      );
      const rows = sql ? (await pool.query(sql.text, sql.values)).rows : [];
      const count = rows.length;
      return {
        from: count ? query.offset + 1 : query.offset,
        to: query.offset + count,
        count,
        messages: shape === 'api' ? rows.map((r) => JSON.parse(r.j)) : rows.map((r) => mapMessage(messageFromJson(r.j).row)),
      };
    },
    ready: () => pool.query('SELECT 1'),
    close: () => pool.end(),
  };
}

function prismaUseCase(url, poolSize) {
  const prisma = createPrismaClient({ url, poolSize });
  // Only $queryRaw is handed over, so the repository's queryRows falls back to it: this path stays
  // Prisma's, whereas the service reads on the pool under it (queryRows), like the raw path.
  const useCase = new ListChatMessages(new MessageRepository({ $queryRaw: (...args) => prisma.$queryRaw(...args) }));
  return { execute: (req) => useCase.execute(req), ready: () => prisma.$queryRaw`SELECT 1`, close: () => prisma.$disconnect() };
}

async function main() {
  const orgId = process.env.ORG_ID;
  if (!orgId) throw new Error('ORG_ID is required');
  const poolSize = Number(process.env.DATABASE_POOL_SIZE || 10);
  const driver = process.env.BASELINE_DRIVER || 'prisma';
  if (driver !== 'prisma' && driver !== 'raw') throw new Error(`BASELINE_DRIVER must be prisma or raw, not ${driver}`);
  const useCase =
    driver === 'raw'
      ? rawUseCase(new pg.Pool({ connectionString: process.env.DATABASE_URL, max: poolSize }), orgId)
      : prismaUseCase(process.env.DATABASE_URL, poolSize);
  const ctx = { org_id: orgId, token_id: '00000000-0000-4000-8000-000000000000', phone_scope: null, phone: null };

  const app = Fastify({ logger: false });
  app.get('/v1/chats/:chat_id/messages', async (req, reply) => {
    const params = ListChatMessagesParams.safeParse(req.params);
    const query = ListChatMessagesQuery.safeParse(req.query ?? {});
    if (!params.success || !query.success) return reply.status(422).send({ error: 'validation' });
    const page = await useCase.execute({ ctx, params: params.data, query: query.data });
    // The chats service replies JSON.stringify(page) as bytes, or a ReadyJson's JSON as it is; the gateway passes them through.
    return reply.type('application/json; charset=utf-8').send(page instanceof ReadyJson ? page.json : JSON.stringify(page));
  });
  await useCase.ready();
  await serveBaseline(app, () => useCase.close());
}

runBaseline(main);
