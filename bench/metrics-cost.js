#!/usr/bin/env node
'use strict';
/**
 * What the metrics cost (issue 20's aim: < 3 % more CPU per request on the GET messages bench than
 * with metrics off). Two gateway → NATS → chats paths over one seeded database, identical but for
 * METRICS_ENABLED (on: as shipped; off: no meter provider, instruments are no-ops), loaded in turn
 * with GET /v1/chats/{chat_id}/messages, the order alternating by round. The figure is the CPU
 * (utime+stime from /proc) of api-gateway + chats per request, median over rounds, and its ratio
 * on/off; a Prometheus scrape of both apps runs every second on the "on" path, as in production.
 * First, in this process, the CPU one record of the request-duration histogram costs (what each
 * request adds on each hop: one record in the gateway, one in chats), which load on a shared
 * machine disturbs far less than the end-to-end comparison.
 *
 * Usage: npx nx run-many -t build && node bench/metrics-cost.js
 * Knobs (env): BENCH_MESSAGES (50000), BENCH_BIG_CHAT (20000), BENCH_CASES ("1:0,100:0" as
 *   limit:offset), BENCH_DURATION (8 s), BENCH_WARMUP (2 s), BENCH_CONNECTIONS (10), BENCH_ROUNDS (3).
 * Results: stdout and bench/results/metrics-cost-<time>.json (with the load average).
 */
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const { randomBytes } = require('node:crypto');

const ROOT = path.join(__dirname, '..');
const RESULTS_DIR = path.join(__dirname, 'results');
for (const f of ['libs/testing/dist/index.js', 'apps/api-gateway/dist/main.js', 'apps/chats/dist/main.js']) {
  if (!fs.existsSync(path.join(ROOT, f))) {
    console.error(`Missing ${f}: build first (npx nx run-many -t build).`);
    process.exit(1);
  }
}

const autocannon = require('autocannon');
const { freePort, testEnv } = require('@mapi/testing');
const { seedOrg, vacuumAnalyze } = require('./messages/seed');
const { startNode, waitReady, stopAll, cpuMeter, waitIdle } = require('./messages/procs');
const { openBenchDatabase } = require('./lib/database');
const { guardBench } = require('./lib/cleanup');

const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const CFG = {
  messages: num('BENCH_MESSAGES', 50_000),
  bigChatMessages: num('BENCH_BIG_CHAT', 20_000),
  duration: num('BENCH_DURATION', 8),
  warmup: num('BENCH_WARMUP', 2),
  connections: num('BENCH_CONNECTIONS', 10),
  rounds: num('BENCH_ROUNDS', 3),
  cases: (process.env.BENCH_CASES || '1:0,100:0').split(',').map((c) => {
    const [limit, offset] = c.split(':').map(Number);
    return { limit, offset: offset || 0 };
  }),
};
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const log = (...a) => console.log(...a);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[Math.floor((s.length - 1) / 2)] + s[Math.ceil((s.length - 1) / 2)]) / 2;
};
const load = () => os.loadavg().map((x) => +x.toFixed(2));

let activeCannon;
const { cleanups, run } = guardBench(600_000, { onAbort: () => activeCannon?.stop() });
const cannon = (opts) =>
  new Promise((resolve, reject) => {
    activeCannon = autocannon({ ...opts, timeout: 30 }, (err, result) => {
      activeCannon = undefined;
      if (err) reject(err);
      else resolve(result);
    });
  });

/** One gateway + chats pair with its own namespace and ports. */
async function startPath(name, env, logDir) {
  const [gwPort, gwHealth, chatsHealth] = [await freePort(), await freePort(), await freePort()];
  const common = { ...env, NAMESPACE: `bench-${name}-${randomBytes(3).toString('hex')}` };
  const chats = startNode(`chats-${name}`, path.join(ROOT, 'apps/chats/dist/main.js'), {
    cwd: ROOT,
    env: { ...common, HEALTH_PORT: String(chatsHealth), HEALTH_HOST: '127.0.0.1' },
    logFile: path.join(logDir, `chats-${name}.log`),
  });
  const gateway = startNode(`api-gateway-${name}`, path.join(ROOT, 'apps/api-gateway/dist/main.js'), {
    cwd: ROOT,
    env: { ...common, PORT: String(gwPort), HOST: '127.0.0.1', HEALTH_PORT: String(gwHealth), HEALTH_HOST: '127.0.0.1' },
    logFile: path.join(logDir, `api-gateway-${name}.log`),
  });
  await Promise.all([
    waitReady(chats, `http://127.0.0.1:${chatsHealth}/health/ready`),
    waitReady(gateway, `http://127.0.0.1:${gwPort}/health/ready`),
  ]);
  const metricsUrls = [`http://127.0.0.1:${gwHealth}/metrics`, `http://127.0.0.1:${chatsHealth}/metrics`];
  const pids = () => [gateway.child.pid, chats.child.pid];
  return {
    name,
    baseUrl: `http://127.0.0.1:${gwPort}`,
    metricsUrls,
    pids,
    meter: cpuMeter({ 'api-gateway': () => [gateway.child.pid], chats: () => [chats.child.pid] }),
  };
}

async function measure(target, world, c) {
  const url = `${target.baseUrl}/v1/chats/${encodeURIComponent(world.bigChat)}/messages?limit=${c.limit}&offset=${c.offset}`;
  const common = { url, connections: CFG.connections, headers: { authorization: `Bearer ${world.token.token}` } };
  const idle = async () => {
    if (!(await waitIdle(target.pids()))) throw new Error(`${target.name} did not become idle`);
  };
  await idle();
  await cannon({ ...common, duration: CFG.warmup });
  await idle();
  // As in production, Prometheus scrapes the "on" path (every second here: more often than the 30 s of deploy/).
  const scraper = setInterval(
    () =>
      target.metricsUrls.forEach((u) =>
        fetch(u)
          .then((r) => r.arrayBuffer())
          .catch(() => undefined),
      ),
    1_000,
  );
  await target.meter.start();
  const r = await cannon({ ...common, duration: CFG.duration });
  const cpu = await target.meter.stop();
  clearInterval(scraper);
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) throw new Error(`${target.name} limit=${c.limit}: ${bad} failed requests`);
  const ok = r['2xx'];
  return {
    rps: ok / r.duration,
    p99: r.latency.p99,
    cpu_ms_per_req: ((cpu['api-gateway'] + cpu.chats) * 1000) / Math.max(1, ok),
    machine_busy_pct: +cpu['machine busy %'].toFixed(1),
    load: load(),
  };
}

/** µs of CPU per histogram record, as the gateway records a request (60 routes, the project's buckets). */
function recordCost(n = 1_000_000) {
  const { MeterProvider } = require('@opentelemetry/sdk-metrics');
  const { PrometheusExporter } = require('@opentelemetry/exporter-prometheus');
  const { DURATION_BUCKETS_S } = require('@mapi/platform');
  const provider = new MeterProvider({ readers: [new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true })] });
  const histogram = provider
    .getMeter('mapi')
    .createHistogram('http.server.request.duration', { unit: 's', advice: { explicitBucketBoundaries: DURATION_BUCKETS_S } });
  const routes = Array.from({ length: 60 }, (_, i) => `/v1/route${i}/:id`);
  const record = (i) =>
    histogram.record(Math.random() / 10, {
      'http.request.method': 'GET',
      'http.response.status_code': i % 50 ? 200 : 422,
      'http.route': routes[i % 60],
    });
  for (let i = 0; i < n / 10; i++) record(i);
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) record(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

async function main() {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const logDir = path.join(RESULTS_DIR, `metrics-cost-logs-${stamp}`);
  fs.mkdirSync(logDir, { recursive: true });
  const recordUs = [recordCost(), recordCost(), recordCost()];
  log(`one histogram record: ${recordUs.map((x) => x.toFixed(3)).join(', ')} µs CPU (3 runs of 1,000,000)`);
  log(
    `metrics cost: ${CFG.messages} messages (${CFG.bigChatMessages} in one chat), ${CFG.connections} connections, ${CFG.rounds} round(s) of ${CFG.duration} s; load avg ${load().join(' ')}`,
  );
  const { db, pg, prisma } = await openBenchDatabase('mapi_bench_metrics', cleanups);
  const world = await seedOrg({
    prisma,
    pg,
    name: 'Metrics cost org',
    total: CFG.messages,
    bigChatMessages: CFG.bigChatMessages,
    otherChats: 99,
    log,
  });
  await vacuumAnalyze(pg, log);

  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATABASE_URL: db.url,
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    RATE_LIMIT_PER_SECOND: '1000000',
  };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete env.NODE_OPTIONS;
  cleanups.push(() => stopAll());
  const paths = {
    on: await startPath('on', { ...env, METRICS_ENABLED: 'true' }, logDir),
    off: await startPath('off', { ...env, METRICS_ENABLED: 'false' }, logDir),
  };
  // The knob works: the "on" path serves metrics, the "off" path none.
  for (const [name, want] of [
    ['on', 200],
    ['off', 404],
  ]) {
    for (const url of paths[name].metricsUrls) {
      const status = (await fetch(url)).status;
      if (status !== want) throw new Error(`${name}: GET ${url} answered ${status}, expected ${want}`);
    }
  }

  const runs = [];
  for (let round = 1; round <= CFG.rounds; round++) {
    for (const c of CFG.cases) {
      const order = round % 2 ? ['on', 'off'] : ['off', 'on'];
      const res = {};
      for (const name of order) res[name] = await measure(paths[name], world, c);
      runs.push({ round, ...c, ...res, ratio: res.on.cpu_ms_per_req / res.off.cpu_ms_per_req });
      log(
        `round ${round} limit=${c.limit}: on ${res.on.cpu_ms_per_req.toFixed(3)} ms CPU/req (${res.on.rps.toFixed(0)} req/s), off ${res.off.cpu_ms_per_req.toFixed(3)} (${res.off.rps.toFixed(0)} req/s): ${((res.on.cpu_ms_per_req / res.off.cpu_ms_per_req - 1) * 100).toFixed(1)} %; load ${load().join(' ')}`,
      );
    }
  }
  const summary = CFG.cases.map((c) => {
    const rs = runs.filter((r) => r.limit === c.limit && r.offset === c.offset);
    return {
      ...c,
      on_cpu_ms_per_req: +median(rs.map((r) => r.on.cpu_ms_per_req)).toFixed(3),
      off_cpu_ms_per_req: +median(rs.map((r) => r.off.cpu_ms_per_req)).toFixed(3),
      extra_cpu_pct: +((median(rs.map((r) => r.ratio)) - 1) * 100).toFixed(1),
      per_round_pct: rs.map((r) => +((r.ratio - 1) * 100).toFixed(1)),
    };
  });
  log('\n| page | CPU ms/req, metrics on | off | extra CPU (median of per-round ratios) | per round |\n|---|---|---|---|---|');
  for (const s of summary)
    log(
      `| limit=${s.limit} offset=${s.offset} | ${s.on_cpu_ms_per_req} | ${s.off_cpu_ms_per_req} | ${s.extra_cpu_pct} % | ${s.per_round_pct.join(', ')} |`,
    );
  log(`load avg at end ${load().join(' ')}`);
  const file = path.join(RESULTS_DIR, `metrics-cost-${stamp}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify(
      {
        when: new Date().toISOString(),
        machine: { cores: os.cpus().length, node: process.version, loadavg_at_end: load() },
        config: CFG,
        record_us: recordUs,
        runs,
        summary,
      },
      null,
      2,
    ),
  );
  log(`written ${path.relative(ROOT, file)}`);
  await stopAll();
}

run(main);
