#!/usr/bin/env node
'use strict';
/**
 * Past one database (issue 22 item 4): does a messages table ten times larger slow the hot paths?
 * Two throw-away databases seeded alike (bench/messages/seed.js: one organization, 3 phones, 50,000
 * chats, every 10th message in one big group chat) with BENCH_SMALL (1M) and BENCH_LARGE (10M)
 * messages; a gateway + chats pair on each (own NATS namespace). Each case is then measured on the
 * two stacks in alternation (small, large, small, large, …) so machine load drifting over the run
 * falls on both sides alike, and the figure kept is the ratio large / small of the medians.
 *   reads: GET a chat's messages (the big chat and a 1-1 chat, limit 100 and 2000), GET /chats,
 *          GET /chats/messages — p50/p99 at 1 and BENCH_CONNECTIONS connections;
 *   ingestion: BENCH_INGEST messages published straight to the ingest stream (as the phones service
 *          does) for a second organization of each database, timed until the chats consumer has
 *          acknowledged them all; the chats process's CPU per message;
 *   storage: bytes per message (heap + TOAST + indexes of `messages`).
 * Writes bench/results/capacity-grow-<time>.json.
 *
 * Usage: bash scripts/build.sh && node bench/capacity/grow.js
 * Knobs (env): BENCH_SMALL (1000000), BENCH_LARGE (10000000), BENCH_CHATS (50000), BENCH_ROUNDS (2),
 *   BENCH_DURATION (6 s), BENCH_WARMUP (1 s), BENCH_CONNECTIONS (10), BENCH_INGEST (20000),
 *   BENCH_INGEST_PER_EVENT (100), BENCH_TIMEOUT_S (5400).
 *   BENCH_KEEP=1 keeps the two databases (their URLs are printed); BENCH_REUSE=<small url>,<large url>
 *   measures on databases a kept run left, without seeding (a new token is made for each).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const autocannon = require('autocannon');
const pgLib = require('pg');
const { freePort, testEnv, createOrg, createPhone, createToken } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { ensureStreams, streamNames } = require('@mapi/events');
const { connect } = require('nats');
const { seedOrg, deriveChatRows } = require('../messages/seed');
const { startNode, waitReady, stopAll, waitIdle, cpuSeconds } = require('../messages/procs');
const { openBenchDatabase } = require('../lib/database');
const { guardBench } = require('../lib/cleanup');
const { publishDirect } = require('../phones/lib/direct-publisher');

const ROOT = path.join(__dirname, '..', '..');
const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const CFG = {
  small: num('BENCH_SMALL', 1_000_000),
  large: num('BENCH_LARGE', 10_000_000),
  chats: num('BENCH_CHATS', 50_000),
  rounds: num('BENCH_ROUNDS', 2),
  duration: num('BENCH_DURATION', 6),
  warmup: num('BENCH_WARMUP', 1),
  connections: num('BENCH_CONNECTIONS', 10),
  ingest: num('BENCH_INGEST', 20_000),
  perEvent: num('BENCH_INGEST_PER_EVENT', 100),
};
const BIG_CHAT = '120363041234567890@g.us';
// A 1-1 chat of the seed (chat ids are '91' || lpad((i * 7919) % (chats - 1), 10, '0') || '@c.us').
const SMALL_CHAT = `91${String(4242).padStart(10, '0')}@c.us`;
const CASES = [
  { name: 'big chat, limit 100', path: `/chats/${BIG_CHAT}/messages?limit=100` },
  { name: 'big chat, limit 2000', path: `/chats/${BIG_CHAT}/messages?limit=2000` },
  // a 1-1 chat holds ≈ 18 messages at 1M and ≈ 180 at 10M: a page of 10 is full in both
  { name: '1-1 chat, limit 10', path: `/chats/${SMALL_CHAT}/messages?limit=10` },
  { name: 'GET /chats, limit 100', path: '/chats?limit=100' },
  { name: 'GET /chats/messages, limit 100', path: '/chats/messages?limit=100' },
];
const log = (...a) => console.log(...a);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let active;
const { cleanups, run } = guardBench(num('BENCH_TIMEOUT_S', 5400) * 1000, { onAbort: () => active?.stop() });

const cannon = (opts) =>
  new Promise((resolve, reject) => {
    active = autocannon({ ...opts, timeout: 30 }, (err, r) => ((active = undefined), err ? reject(err) : resolve(r)));
  });

/** A database of `total` messages with chat rows derived as ingestion keeps them, and a second, empty organization to ingest into. */
async function seedWorld(label, total, reuseUrl) {
  if (reuseUrl) return reuseWorld(label, reuseUrl);
  const keep = process.env.BENCH_KEEP === '1';
  const { db, pg, prisma } = await openBenchDatabase(`mapi_bench_grow_${label}`, cleanups, { keep });
  if (keep) log(`  ${label}: keeping database ${db.url}`);
  const t = Date.now();
  const world = await seedOrg({ prisma, pg, name: `Grow ${label}`, total, bigChatMessages: total / 10, otherChats: CFG.chats - 1, log });
  await deriveChatRows(pg, world.org.id);
  await pg.query('VACUUM ANALYZE chats');
  await pg.query('VACUUM ANALYZE messages');
  const {
    rows: [size],
  } = await pg.query(
    `SELECT pg_total_relation_size('messages')::bigint AS total_bytes, pg_table_size('messages')::bigint AS table_bytes,
            pg_indexes_size('messages')::bigint AS index_bytes, (SELECT count(*) FROM messages)::bigint AS rows`,
  );
  const storage = {
    rows: Number(size.rows),
    bytes_per_message: Math.round(Number(size.total_bytes) / Number(size.rows)),
    table_bytes_per_message: Math.round(Number(size.table_bytes) / Number(size.rows)),
    index_bytes_per_message: Math.round(Number(size.index_bytes) / Number(size.rows)),
    total_gib: +(Number(size.total_bytes) / 2 ** 30).toFixed(2),
  };
  log(
    `  ${label}: seeded ${total.toLocaleString('en')} in ${((Date.now() - t) / 1000).toFixed(0)} s; ${JSON.stringify(storage)}; load ${load()}`,
  );
  const ingestOrg = await createOrg(prisma, { name: `Grow ${label} ingest` });
  const phone = await createPhone(prisma, ingestOrg.id);
  const chats = Array.from({ length: 200 }, (_, k) => `92${String(k).padStart(10, '0')}@c.us`);
  return { label, db, world, storage, ingestPhone: { org_id: ingestOrg.id, phone_id: phone.phone_id, org_phone: phone.org_phone, chats } };
}

/** A world a BENCH_KEEP run left: its organizations found by name, a new token, the storage read again. */
async function reuseWorld(label, url) {
  const pg = new pgLib.Client({ connectionString: url });
  await pg.connect();
  cleanups.push(() => pg.end());
  const prisma = createPrismaClient({ url, poolSize: 2 });
  cleanups.push(() => prisma.$disconnect());
  const org = await prisma.organization.findFirstOrThrow({ where: { name: `Grow ${label}` } });
  const ingestOrg = await prisma.organization.findFirstOrThrow({ where: { name: `Grow ${label} ingest` } });
  const phone = await prisma.phone.findFirstOrThrow({ where: { org_id: ingestOrg.id } });
  const token = await createToken(prisma, org.id);
  const {
    rows: [size],
  } = await pg.query(
    `SELECT pg_total_relation_size('messages')::bigint AS total_bytes, pg_table_size('messages')::bigint AS table_bytes,
            pg_indexes_size('messages')::bigint AS index_bytes, (SELECT count(*) FROM messages)::bigint AS rows`,
  );
  const storage = {
    rows: Number(size.rows),
    bytes_per_message: Math.round(Number(size.total_bytes) / Number(size.rows)),
    table_bytes_per_message: Math.round(Number(size.table_bytes) / Number(size.rows)),
    index_bytes_per_message: Math.round(Number(size.index_bytes) / Number(size.rows)),
    total_gib: +(Number(size.total_bytes) / 2 ** 30).toFixed(2),
  };
  const chats = Array.from({ length: 200 }, (_, k) => `92${String(k).padStart(10, '0')}@c.us`);
  log(`  ${label}: reusing ${url}; ${JSON.stringify(storage)}`);
  return {
    label,
    db: { url },
    world: { org, token },
    storage,
    ingestPhone: { org_id: ingestOrg.id, phone_id: phone.phone_id, org_phone: phone.org_phone, chats },
  };
}

async function startStack(w, nc, logDir) {
  const namespace = `bench-grow-${w.label}-${randomBytes(3).toString('hex')}`;
  await ensureStreams(nc, namespace);
  cleanups.push(async () => {
    const jsm = await nc.jetstreamManager();
    for (const s of Object.values(streamNames(namespace))) await jsm.streams.delete(s).catch(() => undefined);
  });
  const [gwPort, healthPort] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: w.db.url,
    DATABASE_POOL_SIZE: '10',
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    RATE_LIMIT_PER_SECOND: '1000000',
  };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete env.NODE_OPTIONS;
  const chats = startNode(`chats-${w.label}`, path.join(ROOT, 'apps/chats/dist/main.js'), {
    cwd: ROOT,
    env: { ...env, HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1' },
    logFile: path.join(logDir, `chats-${w.label}.log`),
  });
  const gateway = startNode(`gateway-${w.label}`, path.join(ROOT, 'apps/api-gateway/dist/main.js'), {
    cwd: ROOT,
    env: { ...env, PORT: String(gwPort), HOST: '127.0.0.1' },
    logFile: path.join(logDir, `gateway-${w.label}.log`),
  });
  await Promise.all([
    waitReady(chats, `http://127.0.0.1:${healthPort}/health/ready`, { timeoutMs: 60_000 }),
    waitReady(gateway, `http://127.0.0.1:${gwPort}/health/ready`, { timeoutMs: 60_000 }),
  ]);
  return {
    namespace,
    base: `http://127.0.0.1:${gwPort}/v1`,
    pids: [chats.child.pid, gateway.child.pid],
    chatsPid: chats.child.pid,
    headers: { authorization: `Bearer ${w.world.token.token}` },
  };
}

async function readCase(stack, c, connections) {
  const url = stack.base + c.path;
  const probe = await fetch(url, { headers: stack.headers });
  const body = await probe.text();
  if (probe.status !== 200) throw new Error(`${c.path}: ${probe.status} ${body.slice(0, 200)}`);
  await waitIdle(stack.pids);
  if (CFG.warmup) await cannon({ url, headers: stack.headers, connections, duration: CFG.warmup });
  const r = await cannon({ url, headers: stack.headers, connections, duration: CFG.duration });
  return {
    rps: +(r['2xx'] / r.duration).toFixed(1),
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: r.non2xx + r.errors + r.timeouts,
    bytes: body.length,
  };
}

async function ingestRound(w, stack, nc) {
  const jsm = await nc.jetstreamManager();
  const { ingest } = streamNames(stack.namespace);
  await waitIdle(stack.pids);
  const cpu0 = cpuSeconds(stack.chatsPid);
  const t0 = Date.now();
  await publishDirect({ nc, namespace: stack.namespace, phone: w.ingestPhone, total: CFG.ingest, perEvent: CFG.perEvent });
  for (;;) {
    const info = await jsm.consumers.info(ingest, 'chats-ingest');
    if (info.num_pending === 0 && info.num_ack_pending === 0) break;
    if (Date.now() - t0 > 300_000) throw new Error(`${w.label}: ingestion did not drain in 300 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (Date.now() - t0) / 1000;
  return {
    msg_per_s: Math.round(CFG.ingest / seconds),
    chats_cpu_ms_per_msg: +(((cpuSeconds(stack.chatsPid) - cpu0) * 1000) / CFG.ingest).toFixed(3),
  };
}

async function main() {
  log(
    `grow bench: ${CFG.small.toLocaleString('en')} vs ${CFG.large.toLocaleString('en')} messages, ${CFG.chats.toLocaleString('en')} chats; ${os.cpus().length} cores, load ${load()}`,
  );
  const logDir = path.join(ROOT, 'bench/results', `capacity-grow-logs-${stamp}`);
  fs.mkdirSync(logDir, { recursive: true });
  const [reuseSmall, reuseLarge] = (process.env.BENCH_REUSE || '').split(',');
  const small = await seedWorld('small', CFG.small, reuseSmall);
  const large = await seedWorld('large', CFG.large, reuseLarge);
  const nc = await connect({ servers: testEnv.natsUrl(), name: 'bench-capacity-grow' });
  cleanups.push(() => nc.close());
  cleanups.push(() => stopAll());
  const stacks = { small: await startStack(small, nc, logDir), large: await startStack(large, nc, logDir) };
  const worlds = { small, large };
  const samples = {}; // key -> { small: [..], large: [..] }
  const add = (key, side, value) => (samples[key] ??= { small: [], large: [] })[side].push(value);
  for (let round = 1; round <= CFG.rounds; round++) {
    log(`\nround ${round} (load ${load()})`);
    for (const c of CASES) {
      for (const connections of [1, CFG.connections]) {
        for (const side of ['small', 'large']) {
          const r = await readCase(stacks[side], c, connections);
          add(`${c.name} @${connections}`, side, r);
          log(
            `  ${side.padEnd(5)} ${c.name.padEnd(32)} ${String(connections).padStart(2)} conn: ${r.rps} req/s p50 ${r.p50} p99 ${r.p99} ms (${(r.bytes / 1024).toFixed(0)} KiB, failed ${r.failed})`,
          );
        }
      }
    }
    for (const side of ['small', 'large']) {
      const r = await ingestRound(worlds[side], stacks[side], nc);
      add('ingestion', side, r);
      log(`  ${side.padEnd(5)} ingestion of ${CFG.ingest}: ${r.msg_per_s} msg/s, chats ${r.chats_cpu_ms_per_msg} ms CPU per message`);
    }
  }
  const summary = {};
  log('\n| case | 1M: req/s, p50 / p99 ms | 10M: req/s, p50 / p99 ms | 10M / 1M p99 | 10M / 1M req/s |');
  for (const [key, s] of Object.entries(samples)) {
    if (key === 'ingestion') continue;
    const m = (side, k) => median(s[side].map((r) => r[k]));
    summary[key] = {
      small: { rps: m('small', 'rps'), p50: m('small', 'p50'), p99: m('small', 'p99') },
      large: { rps: m('large', 'rps'), p50: m('large', 'p50'), p99: m('large', 'p99') },
    };
    summary[key].p99_ratio = +(summary[key].large.p99 / Math.max(1, summary[key].small.p99)).toFixed(2);
    summary[key].rps_ratio = +(summary[key].large.rps / Math.max(0.1, summary[key].small.rps)).toFixed(2);
    const x = summary[key];
    log(
      `| ${key} | ${x.small.rps}, ${x.small.p50} / ${x.small.p99} | ${x.large.rps}, ${x.large.p50} / ${x.large.p99} | ${x.p99_ratio}x | ${x.rps_ratio}x |`,
    );
  }
  const ing = samples.ingestion;
  summary.ingestion = {
    small: { msg_per_s: median(ing.small.map((r) => r.msg_per_s)), cpu_ms: median(ing.small.map((r) => r.chats_cpu_ms_per_msg)) },
    large: { msg_per_s: median(ing.large.map((r) => r.msg_per_s)), cpu_ms: median(ing.large.map((r) => r.chats_cpu_ms_per_msg)) },
  };
  summary.ingestion.rate_ratio = +(summary.ingestion.large.msg_per_s / summary.ingestion.small.msg_per_s).toFixed(2);
  log(
    `| ingestion | ${summary.ingestion.small.msg_per_s} msg/s, ${summary.ingestion.small.cpu_ms} ms CPU/msg | ${summary.ingestion.large.msg_per_s} msg/s, ${summary.ingestion.large.cpu_ms} ms CPU/msg | | ${summary.ingestion.rate_ratio}x |`,
  );
  log(`storage: 1M ${JSON.stringify(small.storage)}; 10M ${JSON.stringify(large.storage)}`);
  const out = path.join(ROOT, 'bench/results', `capacity-grow-${stamp}.json`);
  fs.writeFileSync(
    out,
    JSON.stringify(
      { cfg: CFG, load_end: os.loadavg(), storage: { small: small.storage, large: large.storage }, summary, samples },
      null,
      2,
    ),
  );
  log(`\nresults: ${out}; load avg now ${load()}`);
}

run(main);
