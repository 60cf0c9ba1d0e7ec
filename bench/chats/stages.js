#!/usr/bin/env node
'use strict';
/**
 * Where a GET /chats (and GET /chats/messages) page's time goes, in ONE process, per stage: the use
 * case as the chats service runs it (Prisma client made by createPrismaClient, so queryRows reads on
 * its pool), timed whole and JSON.stringify of its result, then a CPU profile of repeated calls.
 * Not a latency bench (bench/chats/run.js is): a tool to find the cost before cutting it.
 *
 * Usage: bash scripts/build.sh && node bench/chats/stages.js
 *   STAGES_DB_URL: reuse a database seeded by an earlier run (printed at the end; kept, drop it by hand);
 *   without it, seeds one (BENCH_CHATS, BENCH_MESSAGES as bench/chats/run.js) and keeps it.
 *   STAGES_REPEAT (10): calls per case; STAGES_PROFILE=<file.cpuprofile>: write a CPU profile of the calls.
 */
const fs = require('node:fs');
const inspector = require('node:inspector');
const pgLib = require('pg');
const { createTestDatabase } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { CHATS_HANDLERS } = require('@mapi/chats-feature');
const { ListChatsQuery, ListAllMessagesQuery, ListChatsRpc, ListAllMessagesRpc } = require('@mapi/contracts');
const { seedOrg, deriveChatRows, addGroupParticipants } = require('../messages/seed');

// The use cases as the chats service builds them: its handler table's line for the contract.
const useCase = (contract, deps) => CHATS_HANDLERS.find((line) => line.contract.subject === contract.subject).build(deps);

const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const log = (...a) => console.log(...a);

async function seed() {
  const db = await createTestDatabase('mapi_bench_chats_stages');
  const pg = new pgLib.Client({ connectionString: db.url });
  await pg.connect();
  const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  const chats = num('BENCH_CHATS', 50_000);
  const total = num('BENCH_MESSAGES', 1_000_000);
  const world = await seedOrg({ prisma, pg, name: 'Chats stages', total, bigChatMessages: total / 10, otherChats: chats - 1, log });
  await deriveChatRows(pg, world.org.id);
  await addGroupParticipants(pg, world.org.id);
  await pg.query('VACUUM ANALYZE');
  await pg.end();
  await prisma.$disconnect();
  return db.url;
}

async function main() {
  const url = process.env.STAGES_DB_URL || (await seed());
  const prisma = createPrismaClient({ url, poolSize: 4 });
  const [{ org_id: orgId }] = await prisma.$queryRaw`SELECT org_id::text FROM chats LIMIT 1`;
  const ctx = { org_id: orgId, token_id: '00000000-0000-4000-8000-000000000000', phone_scope: null, phone: null, member: null };
  const listChats = useCase(ListChatsRpc, { prisma });
  const listAll = useCase(ListAllMessagesRpc, { prisma });
  const cases = [
    ['/chats?limit=2000', () => listChats.execute({ ctx, query: ListChatsQuery.parse({ limit: '2000' }) })],
    ['/chats?limit=100', () => listChats.execute({ ctx, query: ListChatsQuery.parse({ limit: '100' }) })],
    ['/chats/messages?limit=2000', () => listAll.execute({ ctx, query: ListAllMessagesQuery.parse({ limit: '2000' }) })],
    ['/chats/messages?limit=100', () => listAll.execute({ ctx, query: ListAllMessagesQuery.parse({ limit: '100' }) })],
  ];
  const repeat = num('STAGES_REPEAT', 10);
  const session = process.env.STAGES_PROFILE ? new inspector.Session() : null;
  const post = (m, p) => new Promise((res, rej) => session.post(m, p, (e, r) => (e ? rej(e) : res(r))));
  if (session) {
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.start');
  }
  for (const [name, call] of cases) {
    await call(); // warm
    const exec = [];
    const stringify = [];
    let bytes = 0;
    for (let i = 0; i < repeat; i++) {
      let t = process.hrtime.bigint();
      const page = await call();
      exec.push(Number(process.hrtime.bigint() - t) / 1e6);
      t = process.hrtime.bigint();
      // a ReadyJson answer (its `json`) is sent as it is; anything else is stringified by the RPC server
      bytes = Buffer.byteLength(typeof page.json === 'string' ? page.json : JSON.stringify(page));
      stringify.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const med = (a) =>
      a
        .slice()
        .sort((x, y) => x - y)
        [a.length >> 1].toFixed(1);
    log(
      `${name.padEnd(30)} ${(bytes / 1024).toFixed(0).padStart(6)} KiB | use case median ${med(exec)} ms | stringify median ${med(stringify)} ms`,
    );
  }
  if (session) {
    const { profile } = await post('Profiler.stop');
    fs.writeFileSync(process.env.STAGES_PROFILE, JSON.stringify(profile));
    log(`profile: ${process.env.STAGES_PROFILE}`);
  }
  await prisma.$disconnect();
  log(`database (kept): ${url}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
