#!/usr/bin/env node
'use strict';
/**
 * GET messages while purges run (queue issue, item 6: "GET messages unaffected while they run").
 * The real read path — api-gateway → NATS → chats → Postgres, with auth and the Redis rate limit —
 * runs as the built processes on a throw-away database seeded by bench/messages/seed.js, and a
 * closed-loop load (BENCH_CONNECTIONS keep-alive connections, GET /v1/chats/{chat}/messages?limit=
 * BENCH_LIMIT) runs the whole time. Each round seeds one phone's send queue in the same Redis with
 * 100,000 unsent jobs (90,000 + one 10,000-job broadcast), then, with the built queue-feature code:
 *   idle           a quiet window (no purge) right before the purges, same conditions;
 *   queue_ids      BENCH_IDS_REPEATS purges of 100 ids each (each takes ~2 ms, so it is repeated);
 *   broadcast      the purge of the 10,000-job broadcast among the 100,000;
 *   all + sweep    the purge of everything (topped up to 100,000 first) and its sweep of the job
 *                  hashes (the answer is O(1); the sweep is where the work is).
 * A request counts for a scenario when its time in flight overlaps the scenario's window. Printed:
 * p50/p99 per scenario and the ratios to idle, the machine's load, and the processes' CPU.
 * Usage: npx nx run-many -t build -p api-gateway,chats,queue-feature,testing && node bench/queue/get-messages-during-purge.js
 * Knobs: BENCH_ROUNDS (3), BENCH_JOBS (100000), BENCH_MESSAGES (200000; 20,000 in the chat read),
 *   BENCH_CONNECTIONS (4), BENCH_LIMIT (100), BENCH_IDLE_S (3), BENCH_IDS_REPEATS (30), BENCH_TIMEOUT_S (600).
 * Loopback only; the database, processes and Redis keys are removed even on failure or Ctrl-C.
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');

const ROOT = path.join(__dirname, '..', '..');
for (const f of [
  'libs/testing/dist/index.js',
  'libs/queue-feature/dist/index.js',
  'apps/api-gateway/dist/main.js',
  'apps/chats/dist/main.js',
]) {
  if (!fs.existsSync(path.join(ROOT, f))) {
    console.error(`Missing ${f}: build first (npx nx run-many -t build -p api-gateway,chats,queue-feature,testing).`);
    process.exit(1);
  }
}
const { Redis } = require('ioredis');
const { freePort, testEnv } = require('@mapi/testing');
const { SendQueues, QueuePurger } = require('@mapi/queue-feature/internals');
const { seedOrg, countOrg, vacuumAnalyze } = require('../messages/seed');
const { startNode, waitReady, stopAll, cpuMeter, pidsByComm } = require('../messages/procs');
const { pct, ms, seedJobs } = require('./jobs');
const { openBenchDatabase } = require('../lib/database');

const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const CFG = {
  rounds: num('BENCH_ROUNDS', 3),
  jobs: num('BENCH_JOBS', 100_000),
  messages: num('BENCH_MESSAGES', 200_000),
  connections: num('BENCH_CONNECTIONS', 4),
  limit: num('BENCH_LIMIT', 100),
  idleS: num('BENCH_IDLE_S', 3),
  idsRepeats: num('BENCH_IDS_REPEATS', 30),
  timeoutMs: num('BENCH_TIMEOUT_S', 600) * 1000,
};
const log = (...a) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...a);
const sleep = (t) => new Promise((r) => setTimeout(r, t));
const loadavg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const { cleanups, run } = require('../lib/cleanup').guardBench(CFG.timeoutMs);

/**
 * Closed-loop GETs over keep-alive connections; every request's [start, end] (ms, monotonic) and
 * status is kept, so windows can be cut afterwards.
 */
function startLoad({ port, path: urlPath, token, connections }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const samples = [];
  let running = true;
  const now = () => Number(process.hrtime.bigint()) / 1e6;
  const one = () =>
    new Promise((resolve) => {
      const start = now();
      const req = http.get({ host: '127.0.0.1', port, path: urlPath, agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve({ start, end: now(), status: res.statusCode }));
      });
      req.on('error', () => resolve({ start, end: now(), status: 0 }));
    });
  const loops = Array.from({ length: connections }, async () => {
    while (running) samples.push(await one());
  });
  return {
    samples,
    now,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

/** Latencies of the requests in flight during any of the windows ([start, end] pairs). */
function during(samples, windows) {
  return samples.filter((s) => s.status === 200 && windows.some(([a, b]) => s.start < b && s.end > a)).map((s) => s.end - s.start);
}

async function main() {
  const t0 = Date.now();
  const load = { start: os.loadavg() };
  log(
    `GET messages during purges: ${CFG.rounds} round(s), ${CFG.jobs.toLocaleString('en')} jobs, ${CFG.connections} connections, limit ${CFG.limit}`,
  );
  log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${loadavg()}, node ${process.version}`);

  // Database, seeded like the messages bench (its seeder), then the two processes of the read path.
  const { db, pg, prisma } = await openBenchDatabase('mapi_bench_queue', cleanups);
  const world = await seedOrg({
    prisma,
    pg,
    name: 'Bench queue org',
    total: CFG.messages,
    bigChatMessages: Math.round(CFG.messages / 10),
    otherChats: 999,
    log: () => undefined,
  });
  await vacuumAnalyze(pg, () => undefined);
  log(`database ${db.name} seeded: ${JSON.stringify(await countOrg(pg, world))}`);

  const namespace = `bench-queue-${randomBytes(4).toString('hex')}`;
  const redis = new Redis(testEnv.redisUrl(), { maxRetriesPerRequest: null });
  cleanups.push(async () => {
    const keys = await redis.keys(`${namespace}:*`);
    for (let i = 0; i < keys.length; i += 1000) await redis.unlink(...keys.slice(i, i + 1000));
    redis.disconnect();
  });
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mapi-bench-queue-'));
  const [gwPort, healthPort] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: db.url,
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    RATE_LIMIT_PER_SECOND: '1000000',
  };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete env.NODE_OPTIONS;
  cleanups.push(() => stopAll());
  const chats = startNode('chats', path.join(ROOT, 'apps/chats/dist/main.js'), {
    cwd: ROOT,
    env: { ...env, HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1' },
    logFile: path.join(logDir, 'chats.log'),
  });
  const gateway = startNode('api-gateway', path.join(ROOT, 'apps/api-gateway/dist/main.js'), {
    cwd: ROOT,
    env: { ...env, PORT: String(gwPort), HOST: '127.0.0.1' },
    logFile: path.join(logDir, 'api-gateway.log'),
  });
  await Promise.all([
    waitReady(chats, `http://127.0.0.1:${healthPort}/health/ready`),
    waitReady(gateway, `http://127.0.0.1:${gwPort}/health/ready`),
  ]);
  const urlPath = `/v1/chats/${encodeURIComponent(world.bigChat)}/messages?limit=${CFG.limit}`;
  const check = await fetch(`http://127.0.0.1:${gwPort}${urlPath}`, { headers: { authorization: `Bearer ${world.token.token}` } });
  const page = await check.json();
  if (check.status !== 200 || page.count !== CFG.limit)
    throw new Error(`GET messages answered ${check.status}: ${JSON.stringify(page).slice(0, 300)}`);
  log(`api-gateway pid ${gateway.child.pid}, chats pid ${chats.child.pid} ready (logs ${logDir}); GET ${urlPath} → ${page.count} messages`);

  const queues = new SendQueues(redis, { namespace, attempts: 3, backoffMs: 1000, keepFinishedSeconds: 3600 });
  cleanups.push(() => queues.close());
  const purger = new QueuePurger(queues);
  const orgId = world.org.id;
  const pgBackends = async () =>
    (await pg.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [db.name])).rows.map((r) => r.pid);
  const meter = cpuMeter({
    'api-gateway': () => [gateway.child.pid],
    chats: () => [chats.child.pid],
    'redis-server': () => pidsByComm('redis-server'),
    'nats-server': () => pidsByComm('nats-server'),
    postgres: pgBackends,
  });

  const loadGen = startLoad({ port: gwPort, path: urlPath, token: world.token.token, connections: CFG.connections });
  cleanups.push(() => loadGen.stop());
  await sleep(2_000); // warm-up
  const windows = { idle: [], queue_ids: [], broadcast: [], 'all + sweep': [] };
  const timings = { queue_ids: [], broadcast: [], all: [], sweep: [] };
  await meter.start();
  for (let round = 1; round <= CFG.rounds; round++) {
    const phone = `phone-bench${randomBytes(5).toString('hex')}`;
    await seedJobs(queues, orgId, phone, CFG.jobs - 10_000);
    await seedJobs(queues, orgId, phone, 10_000, 'bench-broadcast');
    await sleep(1_000); // let Redis settle after the seeding (the GET load keeps running)
    const mark = () => loadGen.now();
    // idle: the same load, nothing purged.
    let a = mark();
    await sleep(CFG.idleS * 1000);
    windows.idle.push([a, mark()]);
    // queue_ids: 100 ids from across the queue, repeated (distinct ids each time).
    const sample = await redis.zrange(queues.keys(phone).unsent.prioritized, 0, -1);
    for (let r = 0; r < CFG.idsRepeats; r++) {
      const pick = Array.from({ length: 100 }, (_, i) => sample[(r + Math.floor((i * sample.length) / 100)) % sample.length]);
      a = mark();
      const t = process.hrtime.bigint();
      await purger.purgeIds(phone, pick);
      timings.queue_ids.push(ms(t));
      windows.queue_ids.push([a, mark()]);
      await sleep(50);
    }
    await sleep(300);
    // broadcast: the 10k among the rest.
    a = mark();
    let t = process.hrtime.bigint();
    await purger.purgeBroadcast(phone, 'bench-broadcast');
    timings.broadcast.push(ms(t));
    windows.broadcast.push([a, mark()]);
    // all: topped up to the full size first, then the answer and the sweep of the job hashes.
    await seedJobs(queues, orgId, phone, CFG.jobs - (await queues.queue(phone).getJobCounts('prioritized')).prioritized);
    await sleep(500);
    a = mark();
    t = process.hrtime.bigint();
    await purger.purgeAll(phone);
    timings.all.push(ms(t));
    t = process.hrtime.bigint();
    await purger.sweep(phone);
    timings.sweep.push(ms(t));
    windows['all + sweep'].push([a, mark()]);
    await queues.queue(phone).obliterate({ force: true });
    log(
      `round ${round}: queue_ids ×${CFG.idsRepeats} median ${pct(timings.queue_ids.slice(-CFG.idsRepeats), 50).toFixed(1)} ms | broadcast ${timings.broadcast.at(-1).toFixed(0)} ms | all ${timings.all.at(-1).toFixed(1)} ms + sweep ${timings.sweep.at(-1).toFixed(0)} ms | load average ${loadavg()}`,
    );
    await sleep(300);
  }
  const cpu = await meter.stop();
  await loadGen.stop();
  load.end = os.loadavg();

  const errors = loadGen.samples.filter((s) => s.status !== 200).length;
  const idle = during(loadGen.samples, windows.idle);
  const base = { p50: pct(idle, 50), p99: pct(idle, 99) };
  const rows = Object.entries(windows).map(([name, w]) => {
    const lat = during(loadGen.samples, w);
    const r = { name, requests: lat.length, p50: pct(lat, 50), p99: pct(lat, 99), max: Math.max(...lat) };
    return { ...r, p50_ratio: r.p50 / base.p50, p99_ratio: r.p99 / base.p99 };
  });
  const f = (x) => (Number.isFinite(x) ? x.toFixed(1) : '—');
  console.log(`\n| while | requests | p50 ms | p99 ms | max ms | p50 / idle | p99 / idle |\n|---|---|---|---|---|---|---|`);
  for (const r of rows)
    console.log(
      `| ${r.name} | ${r.requests} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.max)} | ${r.p50_ratio.toFixed(2)}x | ${r.p99_ratio.toFixed(2)}x |`,
    );
  console.log(
    `\npurge times (median of ${CFG.rounds} round(s)): queue_ids ${pct(timings.queue_ids, 50).toFixed(1)} ms, broadcast ${pct(timings.broadcast, 50).toFixed(0)} ms, all ${pct(timings.all, 50).toFixed(1)} ms, sweep ${pct(timings.sweep, 50).toFixed(0)} ms`,
  );
  console.log(`GET requests in all: ${loadGen.samples.length}, not 200: ${errors}`);
  console.log(
    `CPU s over the measured part: ${Object.entries(cpu)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')}`,
  );
  console.log(
    `load average at start ${load.start.map((x) => x.toFixed(2)).join(' ')}, at end ${load.end.map((x) => x.toFixed(2)).join(' ')} (${os.cpus().length} cores); total ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  if (errors > 0) throw new Error(`${errors} GET requests failed`);
}

run(main);
