#!/usr/bin/env node
'use strict';
/**
 * CPU of one 2000-message page in the chats service's shoes, in one process, interleaved: the way
 * before ReadyJson (`api`: the page read as the spec's message objects built by Postgres, each
 * JSON.parse'd, the page JSON.stringify'd, Buffer.from) against the ReadyJson way (`ready`:
 * ListChatMessages as the service runs it, its bytes as the RPC server sends them). Both ways' bytes
 * are checked to be identical first; Postgres's own planning and execution time for each SQL form is
 * printed at limits 1, 100 and BENCH_LIMIT (docs/benchmarks.md, "ReadyJson").
 *
 * Seeds a throw-away database (bench/lib/database.js, servers as the bench's: TEST_ADMIN_DATABASE_URL)
 * with one organization (bench/messages/seed.js: 6,000 messages, 3,000 in one chat), dropped at the
 * end. Usage: bash scripts/build.sh && node bench/messages/ready-cost.js
 * Knobs: BENCH_ROUNDS (5), BENCH_PAGES (10 per way per round), BENCH_LIMIT (2000).
 */
const pg = require('pg');
const { chatPageSql, MessageRepository, ListChatMessages } = require('@mapi/chats-feature/internals');
const { seedOrg, vacuumAnalyze } = require('./seed');
const { openBenchDatabase } = require('../lib/database');
const { guardBench } = require('../lib/cleanup');

const num = (name, fallback) => Number(process.env[name] || fallback);
const ROUNDS = num('BENCH_ROUNDS', 5);
const PAGES = num('BENCH_PAGES', 10);
const LIMIT = num('BENCH_LIMIT', 2000);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { cleanups, run } = guardBench(15 * 60_000);

async function main() {
  const { db, prisma } = await openBenchDatabase('mapi_bench_page', cleanups);
  const pool = new pg.Pool({ connectionString: db.url, max: 1 });
  const repo = new MessageRepository({ $queryRaw: async (sql) => (await pool.query(sql.text, sql.values)).rows });
  cleanups.push(() => pool.end());
  const world = await seedOrg({
    prisma,
    pg: pool,
    name: 'ready-cost',
    total: LIMIT * 3,
    bigChatMessages: LIMIT * 1.5,
    otherChats: 99,
    log: () => undefined,
  });
  {
    await vacuumAnalyze(pool, () => undefined);
    const page = { chatId: world.bigChat, phoneIds: null, member: null, offset: 0, limit: LIMIT };
    const read = async (shape) => {
      const sql = chatPageSql(world.org.id, page, shape);
      return (await pool.query(sql.text, sql.values)).rows;
    };
    const envelope = (messages) => ({ from: 1, to: messages.length, count: messages.length, messages });
    const ways = {
      api: async () => Buffer.from(JSON.stringify(envelope((await read('api')).map((r) => JSON.parse(r.j))))),
      // what ListChatMessages + rpc-server do now: the use case's ReadyJson, its bytes as they are (replyJson)
      ready: async () => {
        const ctx = { org_id: world.org.id, token_id: '00000000-0000-4000-8000-000000000000', phone_scope: null, phone: null };
        const answer = await new ListChatMessages(repo).execute({
          ctx,
          params: { chat_id: world.bigChat },
          query: { offset: 0, limit: LIMIT },
        });
        return Buffer.isBuffer(answer.json) ? answer.json : Buffer.from(answer.json);
      },
    };
    const [api, ready] = [await ways.api(), await ways.ready()];
    if (!api.equals(ready)) throw new Error('api and ready pages differ');
    const notOk = (await read('ready')).filter((r) => !r.ok).length;
    console.log(`page: ${LIMIT} messages, ${api.length} bytes (api = ready, byte for byte); rows Postgres could not vouch for: ${notOk}`);

    for (const limit of [1, 100, LIMIT]) {
      for (const shape of ['api', 'ready']) {
        const sql = chatPageSql(world.org.id, { ...page, limit }, shape);
        const plan = [];
        const exec = [];
        for (let i = 0; i < 15; i++) {
          const { rows } = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.text}`, sql.values);
          plan.push(rows[0]['QUERY PLAN'][0]['Planning Time']);
          exec.push(rows[0]['QUERY PLAN'][0]['Execution Time']);
        }
        console.log(
          `postgres, limit ${limit}, ${shape} SQL: planning ${median(plan).toFixed(3)} ms, execution ${median(exec).toFixed(3)} ms (medians of 15)`,
        );
      }
    }

    const cpu = { api: [], ready: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, way] of r % 2 ? Object.entries(ways).reverse() : Object.entries(ways)) {
        const t0 = process.cpuUsage();
        for (let k = 0; k < PAGES; k++) await way();
        const u = process.cpuUsage(t0);
        cpu[name].push((u.user + u.system) / 1000 / PAGES);
      }
    }
    for (const [name, xs] of Object.entries(cpu)) {
      console.log(
        `${name.padEnd(5)} ${median(xs).toFixed(1)} ms of this process's CPU per page (median of ${ROUNDS} rounds: ${xs.map((x) => x.toFixed(1)).join(', ')})`,
      );
    }
  }
}

run(main);
