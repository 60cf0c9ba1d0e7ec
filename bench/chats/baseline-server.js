'use strict';
/**
 * Raw-driver floor for GET /v1/chats and GET /v1/chats/messages: ONE Node process, plain Fastify,
 * the chats service's own use cases (ListChats, ListAllMessages: the same SQL, row revival, mapping)
 * on repositories whose database is a bare `pg` pool, and JSON.stringify of the page — no gateway, no
 * NATS hop, no auth, no rate limit, no telemetry, no Prisma (every read, `$queryRaw` ones included,
 * goes straight to pg). What is left is what a 2000-item page costs on this machine at best with this
 * work; bench/chats/run.js measures it in the same run as the gateway path.
 *
 * Started as a child by bench/chats/run.js with DATABASE_URL, ORG_ID, PORT, HOST, DATABASE_POOL_SIZE,
 * and BASELINE_ROOT (the checkout whose built libs to load: the one under test). Prints
 * "listening <port>" when ready; stops on SIGTERM.
 */
const path = require('node:path');
const Fastify = require('fastify');
const pg = require('pg');
const { serveBaseline, runBaseline } = require('../lib/serve-baseline');

const root = process.env.BASELINE_ROOT || path.join(__dirname, '..', '..');
const lib = (p) => require(path.join(root, 'node_modules', p));
const { Prisma } = lib('@mapi/db');
const { CHATS_HANDLERS } = lib('@mapi/chats-feature');
const { ListChatsQuery, ListAllMessagesQuery, ListChatsRpc, ListAllMessagesRpc } = lib('@mapi/contracts');

// The use cases as the chats service builds them: its handler table's line for the contract.
const useCase = (contract, deps) => CHATS_HANDLERS.find((line) => line.contract.subject === contract.subject).build(deps);

/**
 * The one method the repositories' reads need, on a bare pool: `$queryRaw` as a tag or with a
 * Prisma.Sql (queryRows falls back to it for a client createPrismaClient did not make).
 */
function rawClient(pool) {
  return {
    $queryRaw: async (strings, ...values) => {
      const sql = strings instanceof Prisma.Sql ? strings : Prisma.sql(strings, ...values);
      return (await pool.query(sql.text, sql.values)).rows;
    },
  };
}

async function main() {
  const orgId = process.env.ORG_ID;
  if (!orgId) throw new Error('ORG_ID is required');
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE || 10) });
  const db = rawClient(pool);
  const listChats = useCase(ListChatsRpc, { prisma: db });
  const listAll = useCase(ListAllMessagesRpc, { prisma: db });
  const ctx = { org_id: orgId, token_id: '00000000-0000-4000-8000-000000000000', phone_scope: null, phone: null, member: null };

  const app = Fastify({ logger: false });
  const route = (url, schema, useCase) =>
    app.get(url, async (req, reply) => {
      const query = schema.safeParse(req.query ?? {});
      if (!query.success) return reply.status(422).send({ error: 'validation' });
      const page = await useCase.execute({ ctx, query: query.data });
      // The chats service replies JSON.stringify(page) as bytes (or the page's ready JSON as it is).
      const body = typeof page.json === 'string' || page.json instanceof Uint8Array ? page.json : JSON.stringify(page);
      return reply.type('application/json; charset=utf-8').send(body);
    });
  route('/v1/chats', ListChatsQuery, listChats);
  route('/v1/chats/messages', ListAllMessagesQuery, listAll);
  await pool.query('SELECT 1');
  await serveBaseline(app, () => pool.end());
}

runBaseline(main);
