#!/usr/bin/env node
'use strict';
/**
 * Purge benchmark (queue issue, item 6): the three purge modes on a phone queue of BENCH_JOBS
 * (100,000) unsent jobs, against the local Redis, with the built queue-feature code:
 *   1. mode all with 100k waiting (aim < 1 s), and the background sweep that deletes the job hashes;
 *   2. mode broadcast: one 10,000-job broadcast among 100k (aim < 1 s);
 *   3. mode queue_ids: 100 ids among 100k (aim < 100 ms);
 * while a probe measures the latency other Redis clients see (PING and the gateway's rate-limit
 * INCR+PEXPIRE) — the only shared resource between a purge and GET messages.
 * Usage: npm run build && node bench/queue/purge.js   Knobs: BENCH_JOBS (100000), BENCH_ROUNDS (3).
 * Loopback only; the bench's namespace is removed at the end, even on failure.
 */
const path = require('node:path');
const fs = require('node:fs');
const { randomUUID, randomBytes } = require('node:crypto');
const ROOT = path.join(__dirname, '..', '..');
if (!fs.existsSync(path.join(ROOT, 'libs/queue-feature/dist/index.js'))) {
  console.error('Missing libs/queue-feature/dist: run npm run build first.');
  process.exit(1);
}
const { Redis } = require('ioredis');
const { SendQueues, QueuePurger } = require('@mapi/queue-feature/internals');

const JOBS = Number(process.env.BENCH_JOBS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const NS = `bench-queue-${randomBytes(3).toString('hex')}`;
const ORG = randomUUID();

const { pct, ms, seedJobs } = require('./jobs');
const seed = (queues, phone, n, broadcast) => seedJobs(queues, ORG, phone, n, broadcast);

/** Latency other clients see while `fn` runs: a PING and a rate-limit hit every 2 ms. */
async function probed(probe, fn) {
  const samples = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = process.hrtime.bigint();
      await probe.pipeline().incr(`${NS}:probe`).pexpire(`${NS}:probe`, 1000).ping().exec();
      samples.push(ms(t0));
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  const t0 = process.hrtime.bigint();
  const extra = await fn();
  const took = ms(t0);
  running = false;
  await loop;
  return { took, extra, probe_p50: pct(samples, 50), probe_p99: pct(samples, 99), probe_max: Math.max(...samples) };
}

async function main() {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const probe = new Redis(REDIS_URL);
  const queues = new SendQueues(redis, { namespace: NS, attempts: 3, backoffMs: 1000, keepFinishedSeconds: 3600 });
  const purger = new QueuePurger(queues);
  const results = { all: [], sweep: [], broadcast: [], queue_ids: [] };
  try {
    const idle = await probed(probe, () => new Promise((r) => setTimeout(r, 500)));
    console.log(`probe idle: p50 ${idle.probe_p50.toFixed(2)} ms, p99 ${idle.probe_p99.toFixed(2)} ms`);
    for (let round = 1; round <= ROUNDS; round++) {
      const phone = `phone-bench${randomBytes(5).toString('hex')}`;
      let t0 = process.hrtime.bigint();
      await seed(queues, phone, JOBS - 10_000, null);
      await seed(queues, phone, 10_000, 'bench-broadcast');
      const seedMs = ms(t0);
      const others = await seed(queues, phone, 0, null);
      void others;
      const counts = await queues.queue(phone).getJobCounts('prioritized');
      // 3. 100 queue_ids among the 100k (taken from across the queue).
      const sample = await redis.zrange(queues.keys(phone).unsent.prioritized, 0, -1);
      const pick = Array.from({ length: 100 }, (_, i) => sample[Math.floor((i * sample.length) / 100)]);
      const q = await probed(probe, () => purger.purgeIds(phone, pick));
      // 2. the 10k broadcast among the (now 99,9xx) rest.
      const b = await probed(probe, () => purger.purgeBroadcast(phone, 'bench-broadcast'));
      // 1. everything left (~90k), then the sweep; reseed to a full 100k first so the aim's size holds.
      await seed(queues, phone, JOBS - (await queues.queue(phone).getJobCounts('prioritized')).prioritized, null);
      const full = (await queues.queue(phone).getJobCounts('prioritized')).prioritized;
      const a = await probed(probe, () => purger.purgeAll(phone));
      const s = await probed(probe, () => purger.sweep(phone));
      const left = await redis.eval(`return #redis.call('KEYS', ARGV[1])`, 0, `${queues.keys(phone).base}:*`);
      console.log(
        `round ${round}: seeded ${counts.prioritized} in ${(seedMs / 1000).toFixed(1)} s | queue_ids(100): ${q.took.toFixed(1)} ms removed ${q.extra} | broadcast(10k): ${b.took.toFixed(1)} ms removed ${b.extra} | all(${full}): ${a.took.toFixed(1)} ms | sweep: ${s.took.toFixed(0)} ms, keys left ${left}`,
      );
      results.queue_ids.push(q);
      results.broadcast.push(b);
      results.all.push(a);
      results.sweep.push(s);
      await queues.queue(phone).obliterate({ force: true });
    }
    const row = (name, runs, aim) => {
      const t = runs.map((r) => r.took);
      console.log(
        `| ${name} | ${aim} | ${pct(t, 50).toFixed(1)} ms | ${Math.max(...t).toFixed(1)} ms | ${pct(
          runs.map((r) => r.probe_p50),
          50,
        ).toFixed(
          2,
        )} ms | ${Math.max(...runs.map((r) => r.probe_p99)).toFixed(2)} ms | ${Math.max(...runs.map((r) => r.probe_max)).toFixed(2)} ms |`,
      );
    };
    console.log('\n| case | aim | median | worst | other clients p50 | p99 (worst run) | max |\n|---|---|---|---|---|---|---|');
    row('purge all, 100k unsent (answer)', results.all, '< 1 s');
    row('  sweep of the 100k job hashes (after the answer)', results.sweep, '—');
    row('purge broadcast, 10k among 100k', results.broadcast, '< 1 s');
    row('purge 100 queue_ids among 100k', results.queue_ids, '< 100 ms');
    console.log(`probe idle: p50 ${idle.probe_p50.toFixed(2)} ms, p99 ${idle.probe_p99.toFixed(2)} ms`);
  } finally {
    const keys = await redis.keys(`${NS}:*`);
    for (let i = 0; i < keys.length; i += 1000) await redis.unlink(...keys.slice(i, i + 1000));
    await queues.close();
    redis.disconnect();
    probe.disconnect();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
