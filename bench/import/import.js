#!/usr/bin/env node
'use strict';
/**
 * Issue 31's aims: an organization of BENCH_IMPORT_MESSAGES messages (1,000,000) over
 * BENCH_IMPORT_CHATS chats (2,000) on three phones, served by a source stack (gateway, chats,
 * phones, inbox, knowledge-base, webhooks, automation: the hosted API's routes), imported into an
 * empty organization of a target stack with `import:hosted`. Reports the first run's messages per
 * second and wall time, the importer's peak RSS sampled from /proc every 200 ms, the CPU seconds of
 * each process, and a second run's time as a share of the first (nothing new: aim < 10 %).
 *
 * Usage: npm run build && node bench/import/import.js
 * Knobs (env): BENCH_IMPORT_MESSAGES, BENCH_IMPORT_CHATS, BENCH_IMPORT_RATE (requests/s to the source,
 *   default 200), BENCH_IMPORT_CONCURRENCY (8); servers via TEST_ADMIN_DATABASE_URL, REDIS_URL, NATS_URL.
 * Everything runs on loopback; databases, processes and namespaces are throw-away. Results: stdout and
 * bench/results/import-<time>.json.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { freePort, testEnv, createOrg } = require('@mapi/testing');
const { seedOrg, vacuumAnalyze, deriveChatRows } = require('../messages/seed');
const { startNode, waitReady, stopAll, cpuSeconds } = require('../messages/procs');
const { openBenchDatabase } = require('../lib/database');
const { guardBench } = require('../lib/cleanup');

const ROOT = path.join(__dirname, '..', '..');
const RESULTS_DIR = path.join(__dirname, '..', 'results');
const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const CFG = {
  messages: num('BENCH_IMPORT_MESSAGES', 1_000_000),
  chats: num('BENCH_IMPORT_CHATS', 2_000),
  rate: num('BENCH_IMPORT_RATE', 200),
  concurrency: num('BENCH_IMPORT_CONCURRENCY', 8),
};
const SOURCE_APPS = ['chats', 'phones', 'inbox', 'knowledge-base', 'webhooks-dispatcher', 'automation'];
const log = (...a) => console.log(...a);
/** The importer runs with the heap cap its deployment and compose entry give it (deploy/base/apps/importer). */
const IMPORTER_NODE_OPTIONS = process.env.BENCH_IMPORTER_NODE_OPTIONS ?? '--max-old-space-size=160';

/** Starts a stack's services and gateway in their own namespace; answers its base URL and processes. */
async function startStack(label, dbUrl, apps, logDir, extraEnv = {}) {
  const env = {
    ...process.env,
    DATABASE_URL: dbUrl,
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: `bench-import-${label}-${randomBytes(3).toString('hex')}`,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '1000000',
    ...extraEnv,
  };
  const procs = {};
  for (const app of apps) {
    const healthPort = await freePort();
    const own = app === 'importer' ? { NODE_OPTIONS: IMPORTER_NODE_OPTIONS } : {};
    procs[app] = startNode(`${label}:${app}`, path.join(ROOT, 'apps', app, 'dist', 'main.js'), {
      env: { ...env, ...own, HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1' },
      logFile: path.join(logDir, `${label}-${app}.log`),
    });
    await waitReady(procs[app], `http://127.0.0.1:${healthPort}/health/ready`);
  }
  const port = await freePort();
  procs['api-gateway'] = startNode(`${label}:api-gateway`, path.join(ROOT, 'apps', 'api-gateway', 'dist', 'main.js'), {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    logFile: path.join(logDir, `${label}-gateway.log`),
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitReady(procs['api-gateway'], `${baseUrl}/health/ready`);
  return { env, procs, baseUrl };
}

function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Runs import:hosted against the target stack; samples the importer's RSS meanwhile. */
function runImport(target, args, importerPid) {
  return new Promise((resolve, reject) => {
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(importerPid) ?? 0)), 200);
    const started = Date.now();
    const child = spawn(process.execPath, [path.join(ROOT, 'apps', 'admin-cli', 'dist', 'main.js'), 'import:hosted', ...args, '--json'], {
      env: target.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('error', reject);
    child.once('close', (code) => {
      clearInterval(sampler);
      if (code !== 0) return reject(new Error(`import:hosted exited ${code}: ${err}${out}`));
      resolve({ seconds: (Date.now() - started) / 1000, peakRssMb: peak, run: JSON.parse(out) });
    });
  });
}

const { cleanups, run } = guardBench(60 * 60_000, { onAbort: () => void stopAll() });

run(async () => {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const logDir = path.join(RESULTS_DIR, `import-logs-${stamp}`);
  fs.mkdirSync(logDir, { recursive: true });
  cleanups.push(() => stopAll());
  log(`import bench: ${CFG.messages} messages over ${CFG.chats} chats, rate ${CFG.rate}/s, concurrency ${CFG.concurrency}`);
  const src = await openBenchDatabase('mapi_bench_import_src', cleanups);
  const dst = await openBenchDatabase('mapi_bench_import_dst', cleanups);
  const world = await seedOrg({
    prisma: src.prisma,
    pg: src.pg,
    name: 'source',
    total: CFG.messages,
    bigChatMessages: Math.max(1, Math.round(CFG.messages / CFG.chats)),
    otherChats: CFG.chats - 1,
    log,
  });
  await deriveChatRows(src.pg, world.org.id);
  await vacuumAnalyze(src.pg, log);
  const targetOrg = await createOrg(dst.prisma, { name: 'target' });
  const source = await startStack('src', src.db.url, SOURCE_APPS, logDir);
  const target = await startStack('dst', dst.db.url, [...SOURCE_APPS, 'importer'], logDir, { IMPORT_SOURCE_ALLOW_CIDRS: '127.0.0.1/32' });
  const importerPid = target.procs.importer.child.pid;
  const args = [
    '--org',
    targetOrg.id,
    '--from',
    `${source.baseUrl}/v1`,
    '--token',
    world.token.token,
    '--rate',
    String(CFG.rate),
    '--concurrency',
    String(CFG.concurrency),
  ];
  const cpuBefore = Object.fromEntries(
    Object.entries({ ...prefixed('src', source.procs), ...prefixed('dst', target.procs) }).map(([k, p]) => [k, cpuSeconds(p.child.pid)]),
  );
  const first = await runImport(target, args, importerPid);
  const cpu = Object.fromEntries(
    Object.entries({ ...prefixed('src', source.procs), ...prefixed('dst', target.procs) }).map(([k, p]) => [
      k,
      +(cpuSeconds(p.child.pid) - cpuBefore[k]).toFixed(1),
    ]),
  );
  const { rows } = await dst.pg.query('SELECT count(*)::int AS n FROM messages WHERE org_id = $1', [targetOrg.id]);
  const second = await runImport(target, args, importerPid);
  const result = {
    at: new Date().toISOString(),
    config: CFG,
    first: {
      seconds: first.seconds,
      messages: rows[0].n,
      messagesPerSecond: Math.round(rows[0].n / first.seconds),
      peakRssMb: Math.round(first.peakRssMb),
      report: first.run.report.messages,
    },
    second: {
      seconds: second.seconds,
      shareOfFirst: +(second.seconds / first.seconds).toFixed(3),
      peakRssMb: Math.round(second.peakRssMb),
      messagesRead: second.run.report.messages?.read ?? 0,
    },
    cpuSeconds: cpu,
  };
  log(JSON.stringify(result, null, 2));
  log(
    `\nfirst run: ${result.first.messages} messages in ${first.seconds.toFixed(1)} s = ${result.first.messagesPerSecond} messages/s (aim >= 3000); importer peak RSS ${result.first.peakRssMb} MB (aim < 300)`,
  );
  log(`second run: ${second.seconds.toFixed(1)} s = ${(result.second.shareOfFirst * 100).toFixed(1)} % of the first (aim < 10 %)`);
  fs.writeFileSync(path.join(RESULTS_DIR, `import-${stamp}.json`), JSON.stringify(result, null, 2));
});

function prefixed(label, procs) {
  return Object.fromEntries(Object.entries(procs).map(([k, v]) => [`${label}:${k}`, v]));
}
