#!/usr/bin/env node
'use strict';
/**
 * The cost of the send queues' Postgres record (docs/decisions/0077, issue 32): adding a send and a
 * 10,000-job broadcast with the record against without it, in alternating rounds of one run, and a
 * rebuild of BENCH_JOBS pending jobs into an empty namespace. Local Redis and a throw-away database.
 * Usage: npm run build && node bench/queue/record.js   Knobs: BENCH_ROUNDS (5), BENCH_JOBS (10000).
 */
const { randomUUID, randomBytes } = require('node:crypto');
const { Redis } = require('ioredis');
const { createLogger } = require('@mapi/platform');
const { SendQueues, SendRecord, QueueRebuild } = require('@mapi/queue-feature/internals');
const { openBenchDatabase } = require('../lib/database');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const JOBS = Number(process.env.BENCH_JOBS ?? 10_000);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ORG = randomUUID();
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const jobs = (n, tag) =>
  Array.from({ length: n }, (_, i) => ({
    id: `${tag}-${i}`,
    chat_id: `1555${String(i).padStart(7, '0')}@c.us`,
    content: { text: `hello ${i}` },
  }));

async function main() {
  const cleanups = [];
  try {
    await run(cleanups);
  } finally {
    for (const c of cleanups.reverse()) await c().catch((e) => console.error('cleanup step failed:', e.message));
  }
}

async function run(cleanups) {
  const { prisma } = await openBenchDatabase('bench_queue_record', cleanups);
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  cleanups.push(() => redis.quit());
  const ns = `bench-qrec-${randomBytes(3).toString('hex')}`;
  cleanups.push(async () => {
    const keys = await redis.keys(`${ns}*`);
    for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
  });
  const record = new SendRecord(prisma);
  const opts = { attempts: 3, backoffMs: 1000, keepFinishedSeconds: 3600 };
  const variants = {
    without: new SendQueues(redis, { ...opts, namespace: `${ns}-a` }),
    with: new SendQueues(redis, { ...opts, namespace: `${ns}-b`, record }),
  };
  const out = { send: { without: [], with: [] }, broadcast: { without: [], with: [] } };
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 ? ['with', 'without'] : ['without', 'with']) {
      const queues = variants[name];
      const phone = randomUUID();
      let t0 = process.hrtime.bigint();
      for (let i = 0; i < 200; i++) await queues.add(ORG, phone, jobs(1, `s${r}-${i}`), null);
      out.send[name].push(ms(t0) / 200);
      t0 = process.hrtime.bigint();
      await queues.add(ORG, randomUUID(), jobs(JOBS, `b${r}`), `bc-${r}`);
      out.broadcast[name].push(ms(t0));
    }
  }
  // A rebuild of JOBS pending jobs of one phone into a namespace Redis never had.
  const phone = randomUUID();
  await variants.with.add(ORG, phone, jobs(JOBS, 'rebuild'), null);
  const fresh = new SendQueues(redis, { ...opts, namespace: `${ns}-c`, record });
  const rebuild = new QueueRebuild(
    fresh,
    record,
    { namespace: `${ns}-c`, maxWaitMs: 3_600_000, keepFinishedMs: 3_600_000 },
    createLogger('bench', 'error'),
  );
  const t0 = process.hrtime.bigint();
  const requeued = await rebuild.ensure();
  const rebuildMs = ms(t0);
  const result = {
    at: new Date().toISOString(),
    rounds: ROUNDS,
    send_ms: { without: median(out.send.without), with: median(out.send.with) },
    broadcast_ms: { jobs: JOBS, without: median(out.broadcast.without), with: median(out.broadcast.with) },
    rebuild: { jobs: requeued, ms: rebuildMs },
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(
    `send: ${result.send_ms.with.toFixed(2)} ms with the record, ${result.send_ms.without.toFixed(2)} without (${(result.send_ms.with / result.send_ms.without).toFixed(2)}x); ` +
      `${JOBS}-job broadcast: ${result.broadcast_ms.with.toFixed(0)} ms with, ${result.broadcast_ms.without.toFixed(0)} without (${(result.broadcast_ms.with / result.broadcast_ms.without).toFixed(2)}x); rebuild of ${requeued}: ${rebuildMs.toFixed(0)} ms`,
  );
  await fresh.close();
  await Promise.all(Object.values(variants).map((q) => q.close()));
}

main().catch((err) => {
  console.error('bench failed:', err);
  process.exit(1);
});
