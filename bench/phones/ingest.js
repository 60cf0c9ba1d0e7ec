#!/usr/bin/env node
'use strict';
/**
 * Ingestion benchmark (phones issue): inbound messages from the connector boundary to readable
 * through GET /v1/chats/{chat_id}/messages, with chats, phones and api-gateway running as the built
 * processes on a fresh database and a unique NAMESPACE.
 *   1. chats consumer alone: messages-upsert events published straight to JetStream at full speed;
 *   2. pipeline at steady offered rates (rows inserted into sandbox_messages + a NATS nudge, as the
 *      sandbox control API does), per-message lag p50/p99 and the rate readable;
 *   3. the same 2,000/s spread over several phones; 4. saturation: a burst, time until all readable.
 * Usage: npm run build && node bench/phones/ingest.js   (see docs/benchmarks.md, "Phones ingestion")
 * Knobs (env): BENCH_RATES (500,1000,2000), BENCH_SECONDS (20), BENCH_MULTI ("10:2000:20" phones:rate:s,
 *   "" skips), BENCH_BURST (10000, 0 skips), BENCH_DIRECT ("200:30000,20:10000" per-event:total),
 *   BENCH_DRAIN_S (20), BENCH_CPU_PROF=1 (V8 profiles of chats and phones), BENCH_TIMEOUT_S (480).
 * Loopback only; processes, database, streams and Redis keys are removed even on failure or Ctrl-C.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
for (const f of [
  'apps/chats/dist/main.js',
  'apps/phones/dist/main.js',
  'apps/api-gateway/dist/main.js',
  'libs/testing/dist/index.js',
  'libs/events/dist/index.js',
]) {
  if (!fs.existsSync(path.join(ROOT, f))) {
    console.error(`Missing ${f}: run npm run build first.`);
    process.exit(1);
  }
}
const { Pool } = require('pg');
const { Redis } = require('ioredis');
const { connect } = require('nats');
const { createTestDatabase, freePort, testEnv } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { streamNames } = require('@mapi/events');
const procs = require('./lib/procs');
const { createSandboxPhone, createTenant, newNamespace, dropNamespace, serviceEnv, appDatabaseUrl } = require('./lib/world');
const { Feeder } = require('./lib/feeder');
const { Watcher } = require('./lib/watcher');
const { publishDirect } = require('./lib/direct-publisher');
const { spotCheck } = require('./lib/http-probe');
const { measure, settle } = require('./lib/runs');
const { profileSummary } = require('./lib/stats');
const { printReport } = require('./lib/report');
const { buildInfo } = require('./lib/build-info');

const env = (k, d) => (process.env[k] === undefined ? d : process.env[k]);
const CFG = {
  rates: env('BENCH_RATES', '500,1000,2000').split(',').filter(Boolean).map(Number),
  seconds: Number(env('BENCH_SECONDS', 20)),
  multi: env('BENCH_MULTI', '10:2000:20').split(':').filter(Boolean).map(Number),
  burst: Number(env('BENCH_BURST', 10_000)),
  direct: env('BENCH_DIRECT', '200:30000,20:10000')
    .split(',')
    .filter(Boolean)
    .map((c) => c.split(':').map(Number)),
  drainMs: Number(env('BENCH_DRAIN_S', 20)) * 1000,
  cpuProf: env('BENCH_CPU_PROF', '') === '1',
  timeoutMs: Number(env('BENCH_TIMEOUT_S', 480)) * 1000,
};
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), `mapi-bench-phones-${stamp}-`));
const RESULTS = path.join(__dirname, 'results');
const log = (...a) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...a);

const { cleanups, cleanup } = require('../lib/cleanup').guardBench(CFG.timeoutMs);

async function main() {
  const t0 = Date.now();
  const load = { start: procs.loadAverage() };
  log(`load average ${load.start.join(' ')} on ${os.cpus().length} cores; work dir ${WORK}`);
  const namespace = newNamespace();
  const db = await createTestDatabase('mapi_bench_phones');
  cleanups.push(() => db.drop());
  const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  cleanups.push(() => prisma.$disconnect());
  const pool = new Pool({ connectionString: db.url, max: 6 });
  // Counts the bench's own statements, so the services' commits can be told apart in pg_stat_database.
  const query = pool.query.bind(pool);
  pool.queries = 0;
  pool.query = (...args) => {
    pool.queries++;
    return query(...args);
  };
  cleanups.push(() => pool.end());
  const nc = await connect({ servers: testEnv.natsUrl(), name: 'bench-phones' });
  cleanups.push(() => nc.drain());
  const redis = new Redis(testEnv.redisUrl(), { maxRetriesPerRequest: 2 });
  cleanups.push(async () => redis.disconnect());
  cleanups.push(() => dropNamespace(nc, redis, namespace));
  cleanups.push(() => procs.stopAll()); // runs first: services stop before their database goes

  const { org, token } = await createTenant(prisma);
  const mk = (opts) => createSandboxPhone(prisma, pool, org, opts);
  // Phones of the direct runs are soft-deleted: the phones service runs no session for them.
  const directPhones = await Promise.all(CFG.direct.map(() => mk({ deleted: true })));
  const ratePhones = await Promise.all(CFG.rates.map(() => mk()));
  const multiPhones = CFG.multi.length ? await Promise.all(Array.from({ length: CFG.multi[0] }, () => mk({ contacts: 40 }))) : [];
  const burstPhone = CFG.burst ? await mk() : null;

  const baseEnv = serviceEnv({ databaseUrl: db.url, natsUrl: testEnv.natsUrl(), redisUrl: testEnv.redisUrl(), namespace });
  const appUrl = (name) => appDatabaseUrl(db.url, name);
  const nodeArgs = (name) =>
    CFG.cpuProf && name !== 'api-gateway'
      ? ['--cpu-prof', `--cpu-prof-dir=${path.join(WORK, 'prof')}`, `--cpu-prof-name=${name}.cpuprofile`]
      : [];
  const start = async (name, more = {}) => {
    const healthPort = await freePort();
    const proc = procs.startNode(name, path.join(ROOT, 'apps', name, 'dist', 'main.js'), {
      cwd: ROOT,
      env: { ...baseEnv, DATABASE_URL: appUrl(name), HEALTH_PORT: String(healthPort), ...more },
      logFile: path.join(WORK, `${name}.log`),
      nodeArgs: nodeArgs(name),
    });
    await procs.waitReady(proc, `http://127.0.0.1:${healthPort}/health/ready`);
    return proc;
  };
  const running = { chats: await start('chats') };
  const jsm = await nc.jetstreamManager();
  const streams = streamNames(namespace);
  const consumerInfo = () => jsm.consumers.info(streams.ingest, 'chats-ingest');
  // Backends by application_name (set in each service's DATABASE_URL): whose queries cost what.
  const pgPids =
    (apps, not = false) =>
    async () =>
      (
        await pool.query(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND ${not ? 'NOT' : ''} (coalesce(application_name, '') = ANY($1))`,
          [apps],
        )
      ).rows.map((r) => r.pid);
  const cpuGroups = {
    chats: async () => [running.chats.child.pid],
    phones: async () => (running.phones ? [running.phones.child.pid] : []),
    'api-gateway': async () => (running.gateway ? [running.gateway.child.pid] : []),
    'postgres for chats': pgPids(['chats']),
    'postgres for phones': pgPids(['phones']),
    'postgres other (gateway, bench, autovacuum)': pgPids(['chats', 'phones'], true),
    'nats-server (shared)': async () => procs.pidsByComm('nats-server'),
  };
  const watcher = new Watcher(pool);
  await watcher.start();
  cleanups.push(() => watcher.stop());
  const restartChats = async () => {
    running.chats.child.kill('SIGKILL');
    await running.chats.exited;
    running.chats = await start('chats');
  };
  const ctx = { pool, watcher, jsm, streams, consumerInfo, token, restartChats, cpu: procs.cpuMeter(cpuGroups) };
  const results = {
    build: buildInfo(),
    config: CFG,
    machine: { cores: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
    namespace,
    runs: [],
  };

  // 1. The chats consumer alone (the phones service is not running yet).
  for (const [i, [perEvent, total]] of CFG.direct.entries()) {
    const phone = directPhones[i];
    log(`direct: ${total} messages in events of ${perEvent} straight to JetStream`);
    const r = await measure(ctx, {
      name: `chats alone (${perEvent}/event)`,
      phones: [phone],
      probe: false,
      drainMs: 120_000,
      offer: async (onInsert) => {
        onInsert(phone, 0, { at: new Date(), last: {} });
        return publishDirect({ nc, namespace, phone, total, perEvent });
      },
    });
    results.runs.push(r);
    log(
      `  ${r.readable} readable (SQL count ${r.sql_count}), ${r.throughput?.toFixed(0)} msg/s; published at ${(total / r.offer_seconds).toFixed(0)}/s`,
    );
  }

  // 2-4. The whole pipeline.
  running.phones = await start('phones');
  const gatewayPort = await freePort();
  running.gateway = procs.startNode('api-gateway', path.join(ROOT, 'apps', 'api-gateway', 'dist', 'main.js'), {
    cwd: ROOT,
    env: { ...baseEnv, DATABASE_URL: appUrl('api-gateway'), PORT: String(gatewayPort), HOST: '127.0.0.1' },
    logFile: path.join(WORK, 'api-gateway.log'),
  });
  ctx.baseUrl = `http://127.0.0.1:${gatewayPort}`;
  await procs.waitReady(running.gateway, `${ctx.baseUrl}/health/ready`);
  const feeder = new Feeder(pool, nc, namespace);
  const pipelinePhones = [...ratePhones, ...multiPhones, ...(burstPhone ? [burstPhone] : [])];
  log(`warm-up: one message through each of ${pipelinePhones.length} sessions`);
  if (pipelinePhones.length)
    await measure(ctx, {
      name: 'warm-up',
      phones: pipelinePhones,
      probe: false,
      drainMs: 60_000,
      offer: async (onInsert) => {
        for (const ph of pipelinePhones) onInsert(ph, 1, await feeder.insert(ph, 1));
        return { offered: pipelinePhones.length, seconds: 0 };
      },
    }).then((r) => {
      if (!r.drained) throw new Error('sessions did not start: see the phones log in ' + WORK);
    });

  const steady = async (name, phones, rate, seconds) => {
    log(`${name}: ${rate}/s for ${seconds} s over ${phones.length} phone(s)`);
    const r = await measure(ctx, {
      name,
      phones,
      drainMs: CFG.drainMs,
      offer: (onInsert) => feeder.steady({ phones, rate, seconds, onInsert }),
    });
    results.runs.push(r);
    log(
      `  offered ${r.offered_rate.toFixed(0)}/s; readable ${r.sustained_readable_rate?.toFixed(0)}/s sustained; lag p50 ${r.lag_ms.p50} ms p99 ${r.lag_ms.p99} ms; drained ${r.drained}`,
    );
  };
  for (const [i, rate] of CFG.rates.entries()) await steady(`pipeline ${rate}/s`, [ratePhones[i]], rate, CFG.seconds);
  if (multiPhones.length)
    await steady(`pipeline ${CFG.multi[1]}/s over ${multiPhones.length} phones`, multiPhones, CFG.multi[1], CFG.multi[2]);
  if (burstPhone) {
    log(`saturation: ${CFG.burst} messages inserted at once`);
    const r = await measure(ctx, {
      name: `pipeline saturation (${CFG.burst} burst)`,
      phones: [burstPhone],
      drainMs: 90_000,
      offer: (onInsert) => feeder.burst({ phone: burstPhone, total: CFG.burst, onInsert }),
    });
    results.runs.push(r);
    log(
      r.drained
        ? `  ${r.readable} readable in ${(r.readable / r.throughput).toFixed(1)} s: ${r.throughput.toFixed(0)} msg/s`
        : `  only ${r.readable} of ${r.offered} readable after the drain limit`,
    );
  }

  // Readable through the API: whole chats compared with the table.
  const checked = burstPhone ?? ratePhones[ratePhones.length - 1];
  if (checked)
    results.spot_check = await spotCheck({ baseUrl: ctx.baseUrl, token, pool, phone: checked, chats: checked.chats.slice(0, 3) });
  // SandboxNetwork.pending()'s statement, as the session runs it.
  const pendingSql = `SELECT m.*, p.new_message, p.ack AS pending_ack
    FROM (SELECT * FROM sandbox_pending
          WHERE (phone_id, message_id) >= ($1::text, 0) AND (phone_id, message_id) <= ($1::text, 9223372036854775807)
          ORDER BY phone_id, message_id LIMIT 500) p
    CROSS JOIN LATERAL (SELECT * FROM sandbox_messages WHERE id = p.message_id LIMIT 1) m
    ORDER BY p.message_id`;
  if (checked)
    results.explain_pending = (await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${pendingSql}`, [checked.phone_id])).rows.map(
      (r) => r['QUERY PLAN'],
    );
  results.sandbox_rows = (await pool.query('SELECT count(*)::int AS n FROM sandbox_messages')).rows[0].n;
  await settle(ctx, 10_000);
  await watcher.stop();
  await procs.stopAll();
  if (CFG.cpuProf) {
    results.profiles = {};
    for (const name of ['chats', 'phones']) {
      const f = path.join(WORK, 'prof', `${name}.cpuprofile`);
      if (fs.existsSync(f)) results.profiles[name] = profileSummary(f);
    }
  }
  load.end = procs.loadAverage();
  results.load_average = load;
  const after = buildInfo();
  // A rebuild during the run means the figures mix two builds: say so rather than hide it.
  results.rebuilt_during_run = JSON.stringify(after.dist) !== JSON.stringify(results.build.dist);
  results.total_seconds = (Date.now() - t0) / 1000;
  fs.mkdirSync(RESULTS, { recursive: true });
  const out = path.join(RESULTS, `ingest-${stamp}.json`);
  fs.writeFileSync(out, JSON.stringify(results, null, 2));
  printReport(results);
  log(`results: ${out}; logs and profiles: ${WORK}`);
}

main()
  .then(() => cleanup())
  .catch(async (e) => {
    console.error(e);
    await cleanup();
    process.exitCode = 1;
  });
