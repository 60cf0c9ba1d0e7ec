#!/usr/bin/env node
'use strict';
/**
 * Benchmark of response compression (issue 20 item 3 aim: a 2000-message page gzipped is ≥ 8x fewer
 * bytes, with no lower throughput at 10 connections). One chat's GET /v1/chats/{chat_id}/messages
 * through gateway → NATS → chats, loaded with Accept-Encoding identity, gzip and br in turns
 * (BENCH_ROUNDS rounds, the order rotating each round, so drift in the machine's load falls on every
 * encoding alike). Per encoding: bytes on the wire, req/s, p50/p99 at BENCH_CONNECTIONS and the CPU
 * per request of each process on the path (gateway, chats, NATS, Postgres backends, the load generator).
 * Writes bench/results/compression-<time>.json.
 *
 * Usage: bash scripts/build.sh && node bench/compression/run.js
 * Knobs (env): BENCH_MESSAGES (20000: half in the measured chat), BENCH_LIMITS (2000,200), BENCH_ENCODINGS
 *   (identity,gzip,br), BENCH_CONNECTIONS (10), BENCH_DURATION (8 s), BENCH_WARMUP (2 s), BENCH_ROUNDS (3).
 */
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const zlib = require('node:zlib');
const { randomBytes } = require('node:crypto');
const { freePort, testEnv } = require('@mapi/testing');
const { seedOrg } = require('../messages/seed');
const { startNode, waitReady, stopAll, waitIdle, cpuMeter, pidsByComm } = require('../messages/procs');
const { openBenchDatabase } = require('../lib/database');
const { guardBench } = require('../lib/cleanup');
const { loadRunner, wireBytes } = require('../lib/http-load');

const ROOT = path.join(__dirname, '..', '..');
const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const CFG = {
  messages: num('BENCH_MESSAGES', 20_000),
  limits: (process.env.BENCH_LIMITS || '2000,200').split(',').map(Number),
  encodings: (process.env.BENCH_ENCODINGS || 'identity,gzip,br').split(','),
  connections: num('BENCH_CONNECTIONS', 10),
  duration: num('BENCH_DURATION', 8),
  warmup: num('BENCH_WARMUP', 2),
  rounds: num('BENCH_ROUNDS', 3),
};
const log = (...a) => console.log(...a);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const load = loadRunner();
const { cannon } = load;
const { cleanups, run } = guardBench(1_800_000, { onAbort: () => load.stop() });

/** What each zlib setting costs on this page in one thread (median of 5), and how small it gets. */
function levels(body) {
  const settings = [
    ['gzip 1', (b) => zlib.gzipSync(b, { level: 1 })],
    ['gzip 4', (b) => zlib.gzipSync(b, { level: 4 })],
    ['gzip 6', (b) => zlib.gzipSync(b, { level: 6 })],
    ['br 1', (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })],
    ['br 4', (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })],
  ];
  return settings.map(([name, fn]) => {
    const ms = [];
    let out;
    for (let i = 0; i < 5; i++) {
      const t = process.hrtime.bigint();
      out = fn(body);
      ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return { setting: name, ratio: +(body.length / out.length).toFixed(1), ms: +median(ms).toFixed(1) };
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  log(
    `compression bench: ${CFG.messages} messages; ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const { db, pg, prisma } = await openBenchDatabase('mapi_bench_compress', cleanups);
  const world = await seedOrg({
    prisma,
    pg,
    name: 'Compression bench',
    total: CFG.messages,
    bigChatMessages: CFG.messages / 2,
    otherChats: 50,
    log,
  });
  await pg.query('VACUUM ANALYZE messages');

  const namespace = `bench-${randomBytes(4).toString('hex')}`;
  const [gwPort, healthPort] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATABASE_URL: db.url,
    DATABASE_POOL_SIZE: '10',
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    RATE_LIMIT_PER_SECOND: '1000000',
  };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete env.NODE_OPTIONS;
  cleanups.push(() => stopAll());
  const logDir = path.join(ROOT, 'bench/results', `compression-logs-${stamp}`);
  fs.mkdirSync(logDir, { recursive: true });
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
  const pids = () => [chats.child.pid, gateway.child.pid];
  const pgBackends = async () =>
    (await pg.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [db.name])).rows.map((r) => r.pid);
  const meter = cpuMeter({
    'api-gateway': () => [gateway.child.pid],
    chats: () => [chats.child.pid],
    'nats-server': () => pidsByComm('nats-server'),
    postgres: pgBackends,
  });
  const auth = { authorization: `Bearer ${world.token.token}` };

  const results = [];
  for (const limit of CFG.limits) {
    const url = `http://127.0.0.1:${gwPort}/v1/chats/${encodeURIComponent(world.bigChat)}/messages?limit=${limit}`;
    const row = { limit, sizes: {}, runs: Object.fromEntries(CFG.encodings.map((e) => [e, []])) };
    for (const encoding of CFG.encodings) {
      const probe = await wireBytes(url, { ...auth, 'accept-encoding': encoding });
      if (probe.status !== 200) throw new Error(`limit ${limit} ${encoding}: ${probe.status}`);
      if (probe.encoding !== encoding) throw new Error(`limit ${limit}: asked ${encoding}, got ${probe.encoding}`);
      row.sizes[encoding] = probe.bytes;
      if (encoding === 'identity') row.levels = levels(probe.body);
    }
    if (row.levels)
      log(
        `limit ${limit}: ${(row.sizes.identity / 1024).toFixed(0)} KiB; one-thread cost of each setting: ${row.levels.map((l) => `${l.setting} ${l.ratio}x ${l.ms} ms`).join(', ')}`,
      );
    for (let round = 0; round < CFG.rounds; round++) {
      const order = CFG.encodings.map((_, i) => CFG.encodings[(i + round) % CFG.encodings.length]);
      for (const encoding of order) {
        const headers = { ...auth, 'accept-encoding': encoding };
        await waitIdle(pids());
        if (CFG.warmup) await cannon({ url, headers, connections: CFG.connections, duration: CFG.warmup });
        await waitIdle(pids());
        await meter.start();
        const r = await cannon({ url, headers, connections: CFG.connections, duration: CFG.duration });
        const cpu = await meter.stop();
        const done = Math.max(1, r['2xx']);
        row.runs[encoding].push({
          rps: +(r['2xx'] / r.duration).toFixed(1),
          p50: r.latency.p50,
          p99: r.latency.p99,
          failed: r.non2xx + r.errors + r.timeouts,
          load: os.loadavg()[0],
          cpu_ms_per_req: Object.fromEntries(
            Object.entries(cpu).map(([k, v]) => [k, k.includes('%') ? +v.toFixed(0) : +((v * 1000) / done).toFixed(2)]),
          ),
        });
        log(
          `limit ${limit} ${encoding.padEnd(8)} round ${round + 1}: ${row.runs[encoding].at(-1).rps} req/s p50 ${r.latency.p50} p99 ${r.latency.p99} ms, failed ${row.runs[encoding].at(-1).failed}, CPU ms/req ${JSON.stringify(row.runs[encoding].at(-1).cpu_ms_per_req)}`,
        );
      }
    }
    results.push(row);
  }

  log(`\nsummary (medians of ${CFG.rounds} rounds, ${CFG.connections} connections):`);
  for (const row of results) {
    const base = median(row.runs.identity?.map((x) => x.rps) ?? [NaN]);
    for (const e of CFG.encodings) {
      const rps = median(row.runs[e].map((x) => x.rps));
      const total = median(
        row.runs[e].map((x) =>
          Object.entries(x.cpu_ms_per_req)
            .filter(([k]) => !k.includes('%'))
            .reduce((a, [, v]) => a + v, 0),
        ),
      );
      log(
        `limit ${String(row.limit).padStart(4)} ${e.padEnd(8)} ${(row.sizes[e] / 1024).toFixed(1).padStart(8)} KiB (${(row.sizes.identity / row.sizes[e]).toFixed(1)}x fewer) | ${rps} req/s (${(rps / base).toFixed(2)}x identity) p50 ${median(row.runs[e].map((x) => x.p50))} p99 ${median(row.runs[e].map((x) => x.p99))} ms | CPU ${total.toFixed(1)} ms/req, gateway ${median(row.runs[e].map((x) => x.cpu_ms_per_req['api-gateway']))}`,
      );
    }
  }
  const out = path.join(ROOT, 'bench/results', `compression-${stamp}.json`);
  fs.writeFileSync(out, JSON.stringify({ cfg: CFG, load: os.loadavg(), results }, null, 2));
  log(
    `\nresults: ${out}; load avg now ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}

run(main);
