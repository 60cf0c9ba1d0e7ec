#!/usr/bin/env node
'use strict';
/**
 * Benchmark of GET /v1/chats/{chat_id}/messages (spec 4.1): the real path (api-gateway → NATS →
 * chats, with auth and rate limit) next to two single-process baselines doing the same query and
 * serialization — `baseline` (plain Fastify + MessageRepository.listByChat through Prisma +
 * mapMessage + JSON) and `raw` (the same SQL through the pg driver, the same row revival and mapper,
 * JSON) — measured in ONE run with the same page sizes and connections, printing req/s, p50, p99 and
 * the ratios gateway/raw (issue 20's aim) and gateway/baseline. Also: EXPLAIN (ANALYZE, BUFFERS) of the page query on ~1M messages, a
 * per-stage timing of one 2000-message page, and the CPU seconds each process spent.
 *
 * Usage: npx nx run-many -t build && npm run bench
 * Knobs (env): BENCH_MESSAGES (1000000), BENCH_BIG_CHAT (200000), BENCH_HUGE_CHAT (1000000, 0 skips),
 *   BENCH_DURATION (10 s), BENCH_WARMUP (2 s), BENCH_SOLO_DURATION (5 s, 0 skips), BENCH_CONNECTIONS (10),
 *   BENCH_ROUNDS (3), BENCH_CASES ("1:0,100:0,2000:0,100:10000" as limit:offset),
 *   BENCH_CPU_PROF=1 (V8 CPU profiles of the three server processes, summarized at the end),
 *   BENCH_NODE_ARGS (extra node flags for the server processes alike, e.g. "--trace-gc"),
 *   BENCH_BEFORE_ROOT (a checkout of an earlier commit, built: its api-gateway and chats run beside
 *   this tree's as a fourth path, `before`, in their own NATS namespace — a before/after in one run),
 *   DATABASE_URL-style servers via TEST_ADMIN_DATABASE_URL, REDIS_URL, NATS_URL.
 * Everything runs on loopback; the database, the processes and the NATS namespace are throw-away
 * and are removed even on failure or Ctrl-C. Results: stdout, bench/results/messages-<time>.json,
 * server logs in bench/results/messages-logs-<time>/.
 */
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const { randomBytes } = require('node:crypto');

const ROOT = path.join(__dirname, '..');
const RESULTS_DIR = path.join(__dirname, 'results');

for (const f of [
  'libs/testing/dist/index.js',
  'libs/chats-feature/dist/index.js',
  'apps/api-gateway/dist/main.js',
  'apps/chats/dist/main.js',
]) {
  if (!fs.existsSync(path.join(ROOT, f))) {
    console.error(`Missing ${f}: build first (npx nx run-many -t build).`);
    process.exit(1);
  }
}

const autocannon = require('autocannon');
const pgLib = require('pg');
const { freePort, testEnv } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { MessageRepository, mapMessage, chatPageSql, messageFromJson } = require('@mapi/chats-feature/internals');
const { seedOrg, countOrg, vacuumAnalyze } = require('./messages/seed');
const { startNode, waitReady, stopAll, cpuMeter, pidsByComm, waitIdle, startedProcs } = require('./messages/procs');
const { summarizeProfiles } = require('./lib/cpuprofile-summary');
const { openBenchDatabase } = require('./lib/database');
const { guardBench } = require('./lib/cleanup');

const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const CFG = {
  messages: num('BENCH_MESSAGES', 1_000_000),
  bigChatMessages: num('BENCH_BIG_CHAT', 200_000),
  hugeChatMessages: num('BENCH_HUGE_CHAT', 1_000_000), // a second organization with ONE chat this big (EXPLAIN only); 0: skip
  otherChats: num('BENCH_OTHER_CHATS', 3_999), // not a multiple of 5, so every chat gets messages
  duration: num('BENCH_DURATION', 10),
  warmup: num('BENCH_WARMUP', 2),
  soloDuration: num('BENCH_SOLO_DURATION', 5), // unloaded latency: 1 connection, once per case; 0: skip
  connections: num('BENCH_CONNECTIONS', 10),
  rounds: num('BENCH_ROUNDS', 3),
  poolSize: num('BENCH_POOL_SIZE', 10),
  cases: (process.env.BENCH_CASES || '1:0,100:0,2000:0,100:10000').split(',').map((c) => {
    const [limit, offset] = c.split(':').map(Number);
    return { limit, offset: offset || 0 };
  }),
  cpuProf: process.env.BENCH_CPU_PROF === '1',
  beforeRoot: process.env.BENCH_BEFORE_ROOT || '',
  nodeArgs: (process.env.BENCH_NODE_ARGS || '').split(' ').filter(Boolean),
  hardTimeoutMs: num('BENCH_TIMEOUT_S', 900) * 1000,
};

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const log = (...a) => console.log(...a);
const secs = (t) => `${((Date.now() - t) / 1000).toFixed(1)} s`;

// ---- cleanup, whatever happens -------------------------------------------------------------
let activeCannon;
const { cleanups, run } = guardBench(CFG.hardTimeoutMs, { onAbort: () => activeCannon?.stop() });

// ---- load ----------------------------------------------------------------------------------
function cannon(opts) {
  return new Promise((resolve, reject) => {
    activeCannon = autocannon({ ...opts, timeout: 30 }, (err, result) => {
      activeCannon = undefined;
      if (err) reject(err);
      else resolve(result);
    });
  });
}

async function measure(target, c, meter, { connections = CFG.connections, duration = CFG.duration } = {}) {
  const url = `${target.baseUrl}/v1/chats/${encodeURIComponent(target.chat)}/messages?limit=${c.limit}&offset=${c.offset}`;
  const common = { url, connections, headers: target.headers };
  const settle = async () => {
    if (!(await waitIdle(target.pids()))) throw new Error(`${target.name} did not become idle within 60 s`);
  };
  await settle();
  if (CFG.warmup > 0) {
    await cannon({ ...common, duration: CFG.warmup });
    await settle();
  }
  await meter.start();
  const r = await cannon({ ...common, duration });
  const cpu = await meter.stop();
  await settle();
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0)
    throw new Error(
      `${target.name} limit=${c.limit}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts (${JSON.stringify(r.statusCodeStats)})`,
    );
  const ok = r['2xx'];
  return {
    rps: ok / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: ok,
    duration_s: r.duration,
    mb_per_s: r.throughput.average / 1e6,
    cpu_s_per_req_ms: Object.fromEntries(
      Object.entries(cpu)
        .filter(([k]) => !k.includes('%'))
        .map(([k, v]) => [k, +((v * 1000) / Math.max(1, ok)).toFixed(3)]),
    ),
    cpu_s: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, +v.toFixed(2)])),
  };
}

/**
 * measure(), run again (at most twice) when it saw failed requests: on a machine shared with other
 * sessions, Postgres's connection limit is sometimes reached ("too many clients") and a few requests
 * of a path answer 500. The retries are logged and kept in the results.
 */
const retries = [];
async function measureRetrying(target, c, meter) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(target, c, meter);
    } catch (error) {
      if (attempt >= 3 || !/non-2xx/.test(error.message)) throw error;
      retries.push({ target: target.name, limit: c.limit, offset: c.offset, error: error.message });
      log(`  (${error.message}; measuring again)`);
    }
  }
}

// ---- query plan and stage timings ----------------------------------------------------------
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function explainAndStages(db, pg, org, chat, hugeWorld) {
  const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  cleanups.push(() => prisma.$disconnect());
  const repo = new MessageRepository(prisma);
  const out = { plans: {} };
  const queries = CFG.cases.map((c) => ({ label: `limit=${c.limit} offset=${c.offset}`, org, chat, c }));
  if (hugeWorld) {
    for (const c of [
      { limit: 2000, offset: 0 },
      { limit: 2000, offset: 10000 },
    ]) {
      queries.push({ label: `huge chat limit=${c.limit} offset=${c.offset}`, org: hugeWorld.org, chat: hugeWorld.bigChat, c });
    }
  }
  const explain = async (text, values) => {
    await pg.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values); // warm the cache once
    const plan = (await pg.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values)).rows.map((r) => r['QUERY PLAN']);
    const json = (await pg.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values)).rows[0]['QUERY PLAN'][0];
    const indexes = [];
    (function walk(n) {
      if (n['Index Name']) indexes.push(`${n['Node Type']} using ${n['Index Name']}`);
      (n.Plans || []).forEach(walk);
    })(json.Plan);
    return {
      sql: text,
      plan,
      indexes,
      execution_ms: json['Execution Time'],
      planning_ms: json['Planning Time'],
      shared_hit: json.Plan['Shared Hit Blocks'],
      shared_read: json.Plan['Shared Read Blocks'],
    };
  };
  for (const { label, org, chat, c } of queries) {
    const q = chatPageSql(org.id, { chatId: chat, phoneIds: null, offset: c.offset, limit: c.limit });
    out.plans[label] = await explain(q.text, q.values);
  }
  // Where the time of one 2000-message page goes inside one process (no load, medians of 15).
  const big = { chatId: chat, phoneIds: null, offset: 0, limit: 2000 };
  const q = chatPageSql(org.id, big);
  const t = { pg_raw_ms: [], pg_revive_ms: [], prisma_ms: [], map_ms: [], stringify_ms: [], parse_ms: [] };
  let bytes = 0;
  for (let i = 0; i < 15; i++) {
    let s = performance.now();
    const raw = await pg.query(q.text, q.values);
    t.pg_raw_ms.push(performance.now() - s);
    s = performance.now();
    raw.rows.map((r) => messageFromJson(r.j).row);
    t.pg_revive_ms.push(performance.now() - s);
    s = performance.now();
    const rows = await repo.listByChat(org.id, big);
    t.prisma_ms.push(performance.now() - s);
    s = performance.now();
    const messages = rows.map(mapMessage);
    t.map_ms.push(performance.now() - s);
    s = performance.now();
    const json = JSON.stringify({ from: 1, to: rows.length, count: rows.length, messages });
    t.stringify_ms.push(performance.now() - s);
    bytes = Buffer.byteLength(json);
    s = performance.now();
    JSON.parse(json);
    t.parse_ms.push(performance.now() - s);
  }
  out.stages_2000 = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, +median(v).toFixed(2)]));
  out.stages_2000.page_bytes = bytes;
  return out;
}

// ---- main ----------------------------------------------------------------------------------
async function main() {
  const t0 = Date.now();
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const logDir = path.join(RESULTS_DIR, `messages-logs-${stamp}`);
  fs.mkdirSync(logDir, { recursive: true });
  const profDir = path.join(RESULTS_DIR, `messages-prof-${stamp}`);
  const nodeArgs = [...(CFG.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), ...CFG.nodeArgs];

  log(
    `messages bench: ${CFG.messages.toLocaleString('en')} messages (${CFG.bigChatMessages.toLocaleString('en')} in one chat), ` +
      `${CFG.connections} connections, ${CFG.warmup} s warm-up + ${CFG.duration} s per measurement, ${CFG.rounds} round(s)`,
  );
  log(
    `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load avg ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}, node ${process.version}`,
  );

  // Database
  let t = Date.now();
  const { db, pg, prisma } = await openBenchDatabase('mapi_bench', cleanups);
  log(`database ${db.name} created and migrated (${secs(t)}); seeding...`);
  t = Date.now();
  const world = await seedOrg({
    prisma,
    pg,
    name: 'Bench org',
    total: CFG.messages,
    bigChatMessages: CFG.bigChatMessages,
    otherChats: CFG.otherChats,
    log,
  });
  const hugeWorld =
    CFG.hugeChatMessages > 0
      ? await seedOrg({
          prisma,
          pg,
          name: 'Bench org huge chat',
          total: CFG.hugeChatMessages,
          bigChatMessages: CFG.hugeChatMessages,
          otherChats: 1,
          log,
        })
      : undefined;
  const sizesOnDisk = await vacuumAnalyze(pg, log);
  world.counts = await countOrg(pg, world);
  if (hugeWorld) hugeWorld.counts = await countOrg(pg, hugeWorld);
  const seedSeconds = (Date.now() - t) / 1000;
  log(
    `seeded in ${seedSeconds.toFixed(1)} s: bench org ${JSON.stringify(world.counts)}${hugeWorld ? `; huge-chat org ${JSON.stringify(hugeWorld.counts)}` : ''}`,
  );

  // Query plans
  t = Date.now();
  const analysis = await explainAndStages(db, pg, world.org, world.bigChat, hugeWorld);
  log(`\nEXPLAIN (ANALYZE, BUFFERS), warm cache (${secs(t)} incl. stage timings):`);
  for (const [name, p] of Object.entries(analysis.plans)) {
    log(
      `-- ${name}: execution ${p.execution_ms.toFixed(2)} ms, planning ${p.planning_ms.toFixed(2)} ms, buffers hit ${p.shared_hit} read ${p.shared_read}; ${p.indexes.join(', ') || 'NO INDEX'}${p.same_rows === undefined ? '' : p.same_rows ? ' (same rows)' : ' (ROWS DIFFER)'}`,
    );
  }
  for (const key of ['limit=2000 offset=0', 'huge chat limit=2000 offset=0']) {
    const p = analysis.plans[key];
    if (!p) continue;
    if (key === 'limit=2000 offset=0') log(`\n${p.sql}`);
    log(`\n${key}:\n${p.plan.map((l) => `  ${l}`).join('\n')}`);
  }
  log(`\none 2000-message page inside one process (medians of 15): ${JSON.stringify(analysis.stages_2000)}`);

  // Processes
  const namespace = `bench-${randomBytes(4).toString('hex')}`;
  const [basePort, rawPort, gwPort, healthPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const baseEnv = { ...process.env };
  delete baseEnv.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete baseEnv.NODE_OPTIONS;
  const serviceEnv = {
    ...baseEnv,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATABASE_URL: db.url,
    DATABASE_POOL_SIZE: String(CFG.poolSize),
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    RATE_LIMIT_PER_SECOND: '1000000',
  };
  cleanups.push(() => stopAll());
  const baseline = startNode('baseline', path.join(__dirname, 'messages', 'baseline-server.js'), {
    cwd: ROOT,
    env: { ...serviceEnv, ORG_ID: world.org.id, PORT: String(basePort), HOST: '127.0.0.1', BASELINE_DRIVER: 'prisma' },
    logFile: path.join(logDir, 'baseline.log'),
    nodeArgs,
  });
  const rawBaseline = startNode('raw', path.join(__dirname, 'messages', 'baseline-server.js'), {
    cwd: ROOT,
    env: { ...serviceEnv, ORG_ID: world.org.id, PORT: String(rawPort), HOST: '127.0.0.1', BASELINE_DRIVER: 'raw' },
    logFile: path.join(logDir, 'raw.log'),
    nodeArgs,
  });
  const chats = startNode('chats', path.join(ROOT, 'apps/chats/dist/main.js'), {
    cwd: ROOT,
    env: { ...serviceEnv, HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1' },
    logFile: path.join(logDir, 'chats.log'),
    nodeArgs,
  });
  const gateway = startNode('api-gateway', path.join(ROOT, 'apps/api-gateway/dist/main.js'), {
    cwd: ROOT,
    env: { ...serviceEnv, PORT: String(gwPort), HOST: '127.0.0.1' },
    logFile: path.join(logDir, 'api-gateway.log'),
    nodeArgs,
  });
  let before;
  if (CFG.beforeRoot) {
    const [bGwPort, bHealthPort] = [await freePort(), await freePort()];
    const bEnv = { ...serviceEnv, NAMESPACE: `${namespace}-before` };
    const bChats = startNode('chats-before', path.join(CFG.beforeRoot, 'apps/chats/dist/main.js'), {
      cwd: CFG.beforeRoot,
      env: { ...bEnv, HEALTH_PORT: String(bHealthPort), HEALTH_HOST: '127.0.0.1' },
      logFile: path.join(logDir, 'chats-before.log'),
      nodeArgs,
    });
    const bGateway = startNode('api-gateway-before', path.join(CFG.beforeRoot, 'apps/api-gateway/dist/main.js'), {
      cwd: CFG.beforeRoot,
      env: { ...bEnv, PORT: String(bGwPort), HOST: '127.0.0.1' },
      logFile: path.join(logDir, 'api-gateway-before.log'),
      nodeArgs,
    });
    await Promise.all([
      waitReady(bChats, `http://127.0.0.1:${bHealthPort}/health/ready`),
      waitReady(bGateway, `http://127.0.0.1:${bGwPort}/health/ready`),
    ]);
    before = { chats: bChats, gateway: bGateway, port: bGwPort };
  }
  const chatPath = `/v1/chats/${encodeURIComponent(world.bigChat)}/messages?limit=1`;
  await Promise.all([
    waitReady(baseline, `http://127.0.0.1:${basePort}${chatPath}`),
    waitReady(rawBaseline, `http://127.0.0.1:${rawPort}${chatPath}`),
    waitReady(chats, `http://127.0.0.1:${healthPort}/health/ready`),
    waitReady(gateway, `http://127.0.0.1:${gwPort}/health/ready`),
  ]);
  log(
    `\nprocesses ready: baseline pid ${baseline.child.pid}, raw pid ${rawBaseline.child.pid}, api-gateway pid ${gateway.child.pid}, chats pid ${chats.child.pid} (namespace ${namespace})`,
  );

  const targets = {
    baseline: {
      name: 'baseline',
      baseUrl: `http://127.0.0.1:${basePort}`,
      chat: world.bigChat,
      headers: {},
      pids: () => [baseline.child.pid],
    },
    raw: { name: 'raw', baseUrl: `http://127.0.0.1:${rawPort}`, chat: world.bigChat, headers: {}, pids: () => [rawBaseline.child.pid] },
    gateway: {
      name: 'gateway',
      baseUrl: `http://127.0.0.1:${gwPort}`,
      chat: world.bigChat,
      headers: { authorization: `Bearer ${world.token.token}` },
      pids: () => [gateway.child.pid, chats.child.pid],
    },
  };
  if (before) {
    targets.before = {
      name: 'before',
      baseUrl: `http://127.0.0.1:${before.port}`,
      chat: world.bigChat,
      headers: { authorization: `Bearer ${world.token.token}` },
      pids: () => [before.gateway.child.pid, before.chats.child.pid],
    };
  }
  const names = Object.keys(targets);

  // Both must answer the same bytes for every case (the gateway passes the service's JSON through).
  const sizes = {};
  for (const c of CFG.cases) {
    const bodies = {};
    for (const target of Object.values(targets)) {
      const res = await fetch(
        `${target.baseUrl}/v1/chats/${encodeURIComponent(target.chat)}/messages?limit=${c.limit}&offset=${c.offset}`,
        { headers: target.headers },
      );
      bodies[target.name] = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`${target.name} answered ${res.status}: ${bodies[target.name].toString().slice(0, 300)}`);
    }
    const page = JSON.parse(bodies.gateway.toString('utf8'));
    const expected = Math.min(c.limit, Math.max(0, world.counts.big - c.offset));
    if (page.count !== expected)
      throw new Error(`gateway returned ${page.count} messages for limit=${c.limit} offset=${c.offset}, expected ${expected}`);
    for (const name of names.filter((n) => n !== 'gateway')) {
      if (!bodies.gateway.equals(bodies[name]))
        throw new Error(`${name} and gateway bodies differ for limit=${c.limit} offset=${c.offset}`);
    }
    sizes[`${c.limit}:${c.offset}`] = bodies.gateway.length;
  }
  log(`responses identical on all three paths; bytes per page: ${JSON.stringify(sizes)}`);

  // CPU accounting groups
  const pgBackends = async () =>
    (await pg.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [db.name])).rows.map((r) => r.pid);
  const meters = {
    baseline: cpuMeter({ baseline: () => [baseline.child.pid], 'postgres (bench db)': pgBackends }),
    raw: cpuMeter({ raw: () => [rawBaseline.child.pid], 'postgres (bench db)': pgBackends }),
    gateway: cpuMeter({
      'api-gateway': () => [gateway.child.pid],
      chats: () => [chats.child.pid],
      'nats-server': () => pidsByComm('nats-server'),
      'redis-server': () => pidsByComm('redis-server'),
      'postgres (bench db)': pgBackends,
    }),
  };
  if (before) {
    meters.before = cpuMeter({
      'api-gateway': () => [before.gateway.child.pid],
      chats: () => [before.chats.child.pid],
      'nats-server': () => pidsByComm('nats-server'),
      'redis-server': () => pidsByComm('redis-server'),
      'postgres (bench db)': pgBackends,
    });
  }

  const measuringFrom = Date.now();
  // Unloaded latency: one connection, so the figures are the cost of one request, not queueing.
  const solo = [];
  if (CFG.soloDuration > 0) {
    for (const c of CFG.cases) {
      const res = {};
      for (const name of names) {
        res[name] = await measure(targets[name], c, meters[name], { connections: 1, duration: CFG.soloDuration });
        log(
          `1 connection limit=${c.limit} offset=${c.offset} ${name.padEnd(8)}: ${res[name].rps.toFixed(1)} req/s, p50 ${res[name].p50} ms, p99 ${res[name].p99} ms`,
        );
      }
      solo.push({ ...c, ...res });
    }
  }

  // Measurements: per round, per case, both targets back to back (order alternating by round).
  const runs = [];
  for (let round = 1; round <= CFG.rounds; round++) {
    for (const c of CFG.cases) {
      // the order rotates by round, so no path always runs first (or right after another's load)
      // the order rotates by round and runs backwards every other round, so no path always runs
      // first, or always right after the same other path
      const shift = (round - 1) % names.length;
      const rotated = [...names.slice(shift), ...names.slice(0, shift)];
      const order = round % 2 === 0 ? rotated.reverse() : rotated;
      const res = {};
      for (const name of order) {
        res[name] = await measureRetrying(targets[name], c, meters[name]);
        log(
          `round ${round} limit=${c.limit} offset=${c.offset} ${name.padEnd(8)}: ${res[name].rps.toFixed(1)} req/s, p50 ${res[name].p50} ms, p99 ${res[name].p99} ms; CPU ms/req ${JSON.stringify(res[name].cpu_s_per_req_ms)}, machine busy ${res[name].cpu_s['machine busy %']}%`,
        );
      }
      runs.push({
        round,
        ...c,
        ...res,
        ratio: res.gateway.rps / res.baseline.rps,
        ratio_raw: res.gateway.rps / res.raw.rps,
        baseline_vs_raw: res.baseline.rps / res.raw.rps,
        ...(res.before ? { before_ratio_raw: res.before.rps / res.raw.rps, after_vs_before: res.gateway.rps / res.before.rps } : {}),
      });
    }
  }

  // Summary: per case, MEDIAN over rounds (robust to a round disturbed by other load on the
  // machine); the ratio is the median of the per-round ratios, each from back-to-back runs.
  const summary = CFG.cases.map((c) => {
    const rs = runs.filter((r) => r.limit === c.limit && r.offset === c.offset);
    const agg = (name) => ({
      rps: median(rs.map((r) => r[name].rps)),
      p50: median(rs.map((r) => r[name].p50)),
      p99: median(rs.map((r) => r[name].p99)),
    });
    const b = agg('baseline');
    const g = agg('gateway');
    return {
      ...c,
      bytes: sizes[`${c.limit}:${c.offset}`],
      raw: agg('raw'),
      baseline: b,
      gateway: g,
      ratio_raw: median(rs.map((r) => r.ratio_raw)),
      ratios_raw_per_round: rs.map((r) => +r.ratio_raw.toFixed(3)),
      ratio: median(rs.map((r) => r.ratio)),
      ratios_per_round: rs.map((r) => +r.ratio.toFixed(3)),
      baseline_vs_raw: median(rs.map((r) => r.baseline_vs_raw)),
      ...(before
        ? {
            before: agg('before'),
            before_ratio_raw: median(rs.map((r) => r.before_ratio_raw)),
            before_ratios_raw_per_round: rs.map((r) => +r.before_ratio_raw.toFixed(3)),
            after_vs_before: median(rs.map((r) => r.after_vs_before)),
          }
        : {}),
    };
  });

  const fmt = (x, d = 1) => x.toFixed(d);
  const lines = [
    '| page | bytes | raw req/s | p50 / p99 ms | Prisma baseline req/s | p50 / p99 ms | gateway req/s | p50 / p99 ms | gateway/raw (rounds) | gateway/Prisma (rounds) | Prisma/raw |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...summary.map(
      (s) =>
        `| limit=${s.limit} offset=${s.offset} | ${(s.bytes / 1024).toFixed(0)} KiB | ${fmt(s.raw.rps)} | ${s.raw.p50} / ${s.raw.p99} | ${fmt(s.baseline.rps)} | ${s.baseline.p50} / ${s.baseline.p99} | ${fmt(s.gateway.rps)} | ${s.gateway.p50} / ${s.gateway.p99} | ` +
        `**${s.ratio_raw.toFixed(2)}x** (${s.ratios_raw_per_round.join(', ')}) | ${s.ratio.toFixed(2)}x (${s.ratios_per_round.join(', ')}) | ${s.baseline_vs_raw.toFixed(2)}x |`,
    ),
  ];
  log(`\nResults (median of ${CFG.rounds} round(s), ${CFG.connections} connections, ${CFG.duration} s each):\n${lines.join('\n')}`);
  if (before) {
    const beforeLines = [
      '| page | before req/s | p50 / p99 ms | before/raw (rounds) | now req/s | p50 / p99 ms | now/raw | now/before |',
      '|---|---|---|---|---|---|---|---|',
      ...summary.map(
        (s) =>
          `| limit=${s.limit} offset=${s.offset} | ${fmt(s.before.rps)} | ${s.before.p50} / ${s.before.p99} | ${s.before_ratio_raw.toFixed(2)}x (${s.before_ratios_raw_per_round.join(', ')}) | ${fmt(s.gateway.rps)} | ${s.gateway.p50} / ${s.gateway.p99} | ${s.ratio_raw.toFixed(2)}x | ${s.after_vs_before.toFixed(2)}x |`,
      ),
    ];
    log(`\nGateway path before (${CFG.beforeRoot}) and now, same run:\n${beforeLines.join('\n')}`);
  }
  if (solo.length) {
    const soloLines = [
      '| page | raw p50 / p99 ms | Prisma baseline p50 / p99 ms | gateway p50 / p99 ms | gateway added to raw, p50 ms |',
      '|---|---|---|---|---|',
      ...solo.map(
        (s) =>
          `| limit=${s.limit} offset=${s.offset} | ${s.raw.p50} / ${s.raw.p99} | ${s.baseline.p50} / ${s.baseline.p99} | ${s.gateway.p50} / ${s.gateway.p99} | ${(s.gateway.p50 - s.raw.p50).toFixed(1)} |`,
      ),
    ];
    log(`\nUnloaded latency (1 connection, ${CFG.soloDuration} s each):\n${soloLines.join('\n')}`);
  }
  const cpuLines = [
    `| page | raw path CPU ms/req | Prisma baseline path CPU ms/req | gateway path CPU ms/req | of which api-gateway | chats | nats-server | redis |${before ? ' before: path | api-gateway | chats | nats-server |' : ''}`,
    `|---|---|---|---|---|---|---|---|${before ? '---|---|---|---|' : ''}`,
    ...CFG.cases.map((c) => {
      const rs = runs.filter((r) => r.limit === c.limit && r.offset === c.offset);
      const m = (name, key) => median(rs.map((r) => r[name].cpu_s_per_req_ms[key] ?? 0));
      const sum = (name) => median(rs.map((r) => Object.values(r[name].cpu_s_per_req_ms).reduce((a, b) => a + b, 0)));
      return (
        `| limit=${c.limit} offset=${c.offset} | ${sum('raw').toFixed(2)} | ${sum('baseline').toFixed(2)} | ${sum('gateway').toFixed(2)} | ${m('gateway', 'api-gateway').toFixed(2)} | ${m('gateway', 'chats').toFixed(2)} | ${m('gateway', 'nats-server').toFixed(2)} | ${m('gateway', 'redis-server').toFixed(2)} |` +
        (before
          ? ` ${sum('before').toFixed(2)} | ${m('before', 'api-gateway').toFixed(2)} | ${m('before', 'chats').toFixed(2)} | ${m('before', 'nats-server').toFixed(2)} |`
          : '')
      );
    }),
  ];
  log(
    `\nCPU per request, median of rounds (all processes of the path incl. postgres backends and the load generator; /proc utime+stime):\n${cpuLines.join('\n')}`,
  );
  const aim = 0.6; // gateway vs the raw-driver baseline (docs/benchmarks.md, "GET messages: gateway vs raw driver")
  for (const s of summary)
    log(
      `limit=${s.limit} offset=${s.offset}: gateway/raw ${s.ratio_raw.toFixed(2)}x — aim ${aim}x ${s.ratio_raw >= aim ? 'MET' : 'NOT met'}; gateway p99 ${s.gateway.p99} ms`,
    );

  // Stop the servers gracefully now (this is what writes the CPU profiles), then summarize them.
  await stopAll();
  let profiles;
  if (CFG.cpuProf) {
    // only the samples from the first measurement on: not the start-up, the seeding wait or the checks
    const skip = Object.fromEntries(startedProcs().map((p) => [p.child.pid, measuringFrom - p.startedAt]));
    profiles = summarizeProfiles(
      profDir,
      {
        [baseline.child.pid]: 'baseline',
        [rawBaseline.child.pid]: 'raw',
        [gateway.child.pid]: 'api-gateway',
        [chats.child.pid]: 'chats',
        ...(before ? { [before.gateway.child.pid]: 'api-gateway-before', [before.chats.child.pid]: 'chats-before' } : {}),
      },
      skip,
    );
    for (const [name, p] of Object.entries(profiles)) {
      log(`\nCPU profile ${name} (${p.file}, from ${(p.skipped_ms / 1000).toFixed(1)} s on): top self time`);
      for (const row of p.top) log(`  ${row.pct.toFixed(1).padStart(5)}%  ${row.name}  ${row.where}`);
      log(`  by package: ${p.byPackage.map((x) => `${x.name} ${x.pct.toFixed(1)}%`).join(', ')}`);
    }
  }

  const result = {
    when: new Date().toISOString(),
    machine: {
      cores: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      mem_gib: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      loadavg_at_end: os.loadavg(),
    },
    config: CFG,
    data: { ...world.counts, huge_chat_org: hugeWorld?.counts, on_disk: sizesOnDisk, seed_seconds: seedSeconds, big_chat: world.bigChat },
    analysis,
    sizes,
    solo,
    runs,
    summary,
    profiles,
    retries,
    total_seconds: (Date.now() - t0) / 1000,
  };
  const file = path.join(RESULTS_DIR, `messages-${stamp}.json`);
  fs.writeFileSync(file, JSON.stringify(result, null, 2));
  log(`\nwritten ${path.relative(ROOT, file)}; logs in ${path.relative(ROOT, logDir)}; total ${secs(t0)}`);
}

run(main);
