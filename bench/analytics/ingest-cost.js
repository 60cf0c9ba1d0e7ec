#!/usr/bin/env node
'use strict';
/**
 * What counting analytics costs ingestion (issue 34 aim: with analytics on, ≤ 10 % more CPU per ingested
 * message than with it off, and the 2,000 msg/s ingestion aim still met). Rounds alternate off / on
 * (BENCH_ROUNDS, default off,on,off,on), each on a fresh database and namespace: chats and phones (and
 * analytics when on) as the built processes, a nats-server of the bench's own (its CPU is the bench's
 * path only), the machine's Postgres with each service's backends told apart by application_name
 * (bench/phones does the same). Per round: BENCH_WARMUP (2,000) messages, then BENCH_RATE (2,000)
 * messages/s offered on one sandbox phone for BENCH_SECONDS (15) as the sandbox network writes them; the
 * round ends when every message is readable and (on) counted by analytics. CPU = utime + stime from
 * /proc of the services, their Postgres backends and the nats-server, per 1,000 messages; the machine's
 * other work is not in it, so the ratio holds on a shared machine better than a rate does.
 * Usage: bash scripts/build.sh && node bench/analytics/ingest-cost.js. Results: bench/results/analytics-ingest-cost-<time>.json.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Pool } = require('pg');
const { connect } = require('nats');
const { Redis } = require('ioredis');
const { createTestDatabase, freePort, testEnv, PrivateNats } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const procs = require('../phones/lib/procs');
const { createSandboxPhone, createTenant, newNamespace, dropNamespace, serviceEnv, appDatabaseUrl } = require('../phones/lib/world');
const { Feeder } = require('../phones/lib/feeder');
const { guardBench } = require('../lib/cleanup');

const ROOT = path.join(__dirname, '..', '..');
const env = (k, d) => (process.env[k] === undefined ? d : process.env[k]);
const CFG = {
  rounds: env('BENCH_ROUNDS', 'off,on,off,on').split(','),
  rate: Number(env('BENCH_RATE', 2000)),
  seconds: Number(env('BENCH_SECONDS', 15)),
  warmup: Number(env('BENCH_WARMUP', 2000)),
};
/** BENCH_CPU_PROF=1: V8 CPU profiles of the services, summarized at the end (bench/lib/cpuprofile-summary.js). */
const PROFILE = env('BENCH_CPU_PROF', '') === '1';
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'mapi-bench-analytics-cost-'));
const log = (...a) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const guard = guardBench(Number(env('BENCH_TIMEOUT_S', 1200)) * 1000);
const { cleanups } = guard;

/** The nats-server listening on `port` (the bench's own). */
function natsPid(port) {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmd[0].endsWith('nats-server') && cmd.includes(String(port))) return Number(entry);
    } catch {
      /* gone */
    }
  }
  return null;
}

async function waitCount(pool, sql, args, n, what, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query(sql, args);
    if (rows[0].n >= n) return Date.now();
    if (Date.now() > deadline) throw new Error(`${what}: ${rows[0].n} of ${n} after ${timeoutMs} ms`);
    await sleep(50);
  }
}

async function round(mode, nats) {
  const withAnalytics = mode === 'on';
  const namespace = newNamespace();
  const db = await createTestDatabase('mapi_bench_an_cost');
  const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  const pool = new Pool({ connectionString: db.url, max: 4 });
  const nc = await connect({ servers: nats.url, name: 'bench-analytics-cost' });
  const redis = new Redis(testEnv.redisUrl(), { maxRetriesPerRequest: 2 });
  const started = [];
  const close = async () => {
    await Promise.all(started.map((p) => procs.stopProc(p)));
    await dropNamespace(nc, redis, namespace).catch(() => undefined);
    await nc.drain().catch(() => undefined);
    redis.disconnect();
    await pool.end();
    await prisma.$disconnect();
    await db.drop();
  };
  try {
    const baseEnv = serviceEnv({ databaseUrl: db.url, natsUrl: nats.url, redisUrl: testEnv.redisUrl(), namespace });
    const appUrl = (name) => appDatabaseUrl(db.url, name);
    const start = async (name) => {
      const healthPort = await freePort();
      const proc = procs.startNode(name, path.join(ROOT, 'apps', name, 'dist', 'main.js'), {
        cwd: ROOT,
        env: { ...baseEnv, DATABASE_URL: appUrl(name), HEALTH_PORT: String(healthPort) },
        logFile: path.join(WORK, `${name}-${mode}.log`),
        nodeArgs: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(WORK, 'prof')}`, `--cpu-prof-name=${name}-${mode}.cpuprofile`] : [],
      });
      started.push(proc);
      await procs.waitReady(proc, `http://127.0.0.1:${healthPort}/health/ready`);
      return proc;
    };
    const apps = ['chats', 'phones', ...(withAnalytics ? ['analytics'] : [])];
    const running = {};
    for (const name of apps) running[name] = await start(name);
    const { org } = await createTenant(prisma);
    const phone = await createSandboxPhone(prisma, pool, org, { contacts: 200 });
    const feeder = new Feeder(pool, nc, namespace);
    const readable = (n, what) => waitCount(pool, 'SELECT count(*)::int AS n FROM messages WHERE phone_id = $1', [phone.phone_id], n, what);
    const counted = (n, what) => waitCount(pool, 'SELECT count(*)::int AS n FROM analytics_messages WHERE org_id = $1', [org.id], n, what);

    await feeder.burst({ phone, total: CFG.warmup, batch: 500 });
    await readable(CFG.warmup, 'warm-up readable');
    if (withAnalytics) await counted(CFG.warmup, 'warm-up counted');
    await sleep(1_000);

    const pgPids = (name) => async () =>
      (await pool.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [name])).rows.map(
        (r) => r.pid,
      );
    const groups = { 'nats-server': async () => [natsPid(nats.port)].filter(Boolean) };
    for (const name of apps) {
      groups[name] = async () => [running[name].child.pid];
      groups[`postgres for ${name}`] = pgPids(name);
    }
    const cpu = procs.cpuMeter(groups);
    await cpu.start();
    const t0 = Date.now();
    const offer = await feeder.steady({ phones: [phone], rate: CFG.rate, seconds: CFG.seconds });
    const total = CFG.warmup + offer.offered;
    const readAt = await readable(total, 'readable');
    const countedAt = withAnalytics ? await counted(total, 'counted') : null;
    const used = await cpu.stop();
    const perK = (s) => +((1000 * s) / offer.offered).toFixed(3);
    const services = Object.keys(groups).reduce((sum, g) => sum + used[g], 0);
    const result = {
      mode,
      offered: offer.offered,
      offered_per_second: Math.round(offer.offered / offer.seconds),
      readable_per_second: Math.round(offer.offered / ((readAt - t0) / 1000)),
      counted_after_readable_ms: countedAt ? countedAt - readAt : null,
      cpu_seconds_per_1000: Object.fromEntries(Object.keys(groups).map((g) => [g, perK(used[g])])),
      cpu_seconds_per_1000_total: perK(services),
      machine_busy_percent: Math.round(used['machine busy %']),
    };
    log(`${mode}:`, JSON.stringify(result));
    return result;
  } finally {
    await close();
  }
}

async function main() {
  const load = [procs.loadAverage()];
  log(`load ${load[0].join(' ')}; rounds ${CFG.rounds.join(',')}; ${CFG.rate}/s for ${CFG.seconds} s`);
  const nats = await PrivateNats.start();
  cleanups.push(() => nats.destroy());
  const rounds = [];
  for (const mode of CFG.rounds) rounds.push(await round(mode, nats));
  load.push(procs.loadAverage());
  const mean = (mode, f) => {
    const xs = rounds.filter((r) => r.mode === mode).map(f);
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  };
  const off = mean('off', (r) => r.cpu_seconds_per_1000_total);
  const on = mean('on', (r) => r.cpu_seconds_per_1000_total);
  const summary = {
    cpu_per_1000_off: off && +off.toFixed(3),
    cpu_per_1000_on: on && +on.toFixed(3),
    on_vs_off: off && on ? +(on / off).toFixed(3) : null,
    readable_per_second_on: mean('on', (r) => r.readable_per_second),
    aim: { on_vs_off_at_most: 1.1, readable_per_second_at_least: 2000 },
  };
  log('summary', JSON.stringify(summary), `load ${load[0].join(' ')} → ${load[1].join(' ')}`);
  const at = new Date().toISOString();
  const out = { at, config: CFG, load, rounds, summary };
  fs.mkdirSync(path.join(__dirname, '..', 'results'), { recursive: true });
  const file = path.join(__dirname, '..', 'results', `analytics-ingest-cost-${at.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(out, null, 2));
  log(`written ${path.relative(process.cwd(), file)}`);
}

guard.run(main);
