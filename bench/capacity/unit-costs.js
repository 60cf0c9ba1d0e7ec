#!/usr/bin/env node
'use strict';
/**
 * CPU per unit of work for docs/capacity.md (issue 22 item 4): the units no other bench prices.
 *   1. inbound messages with a webhook subscribed to message.created: BENCH_INBOUND messages published
 *      straight to the ingest stream (as the phones service does for a real phone), ingested by chats,
 *      relayed, and delivered by the webhooks dispatcher to a local receiver — CPU per ingested message
 *      (chats and its Postgres backends) and per webhook delivery (dispatcher and its backends);
 *   2. sends: BENCH_SENDS POST /v1/message/send over BENCH_PHONES connected sandbox phones, until every
 *      one is on the network and echoed back into GET messages (queue → phones session → network →
 *      ingestion) — CPU per sent message by process.
 * CPU is utime+stime from /proc of each app and of the Postgres backends by application_name (each app
 * connects with its own), so the database's share is priced per service. NATS and Redis are shared
 * with the rest of the machine and reported as such. Each group's idle rate (5 s with nothing to do,
 * measured just before each phase) times the phase's duration is taken off its figure.
 * Writes bench/results/capacity-units-<time>.json.
 *
 * Usage: bash scripts/build.sh && node bench/capacity/unit-costs.js
 * Knobs (env): BENCH_INBOUND (5000), BENCH_PER_EVENT (50), BENCH_SENDS (800), BENCH_PHONES (4),
 *   BENCH_SEND_CONCURRENCY (8).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { Pool } = require('pg');
const { Redis } = require('ioredis');
const { connect } = require('nats');
const { AppProcess, createTestDatabase, createOrg, createPhone, createToken, freePort, randomDigits, testEnv } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { ensureStreams, streamNames } = require('@mapi/events');
const { guardBench } = require('../lib/cleanup');
const { cpuSeconds, pidsByComm } = require('../messages/procs');
const { publishDirect } = require('../phones/lib/direct-publisher');
const { startReceiver } = require('../webhooks/receiver');

const ROOT = path.join(__dirname, '..', '..');
const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const CFG = {
  inbound: num('BENCH_INBOUND', 5000),
  perEvent: num('BENCH_PER_EVENT', 50),
  sends: num('BENCH_SENDS', 800),
  phones: num('BENCH_PHONES', 4),
  concurrency: num('BENCH_SEND_CONCURRENCY', 8),
};
const APPS = ['chats', 'phones', 'queue', 'webhooks-dispatcher'];
const log = (...a) => console.log(...a);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const { cleanups, run } = guardBench(1_800_000);

async function waitFor(fn, timeoutMs, label) {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${label}`);
    await sleep(50);
  }
}

async function main() {
  log(`unit costs: ${CFG.inbound} inbound messages (webhook each), ${CFG.sends} sends over ${CFG.phones} phones; load ${load()}`);
  const db = await createTestDatabase('mapi_bench_units');
  cleanups.push(() => db.drop());
  const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  cleanups.push(() => prisma.$disconnect());
  const pool = new Pool({ connectionString: db.url, max: 2, application_name: 'bench' });
  cleanups.push(() => pool.end());
  const nc = await connect({ servers: testEnv.natsUrl(), name: 'bench-capacity-units' });
  cleanups.push(() => nc.close());
  const namespace = `bench-units-${randomBytes(3).toString('hex')}`;
  await ensureStreams(nc, namespace);
  cleanups.push(async () => {
    const jsm = await nc.jetstreamManager();
    for (const s of Object.values(streamNames(namespace))) await jsm.streams.delete(s).catch(() => undefined);
  });
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());

  const appUrl = (name) => {
    const u = new URL(db.url);
    u.searchParams.set('application_name', name);
    return u.toString();
  };
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    RATE_LIMIT_PER_SECOND: '1000000',
    WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
    WEBHOOK_ENDPOINT_MAX_IN_FLIGHT: '10000',
    QUEUE_SEND_INTERVAL_MS: '10',
    QUEUE_SEND_JITTER_MS: '0', // pacing is waiting, not CPU; every other timer at its default
  };
  const procs = {};
  cleanups.push(() => Promise.all(Object.values(procs).map((p) => p.stop())));
  for (const app of APPS) {
    const healthPort = await freePort();
    procs[app] = AppProcess.start(app, { ...env, DATABASE_URL: appUrl(app), HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1' });
    procs[app].health = `http://127.0.0.1:${healthPort}/health/ready`;
  }
  const port = await freePort();
  procs['api-gateway'] = AppProcess.start('api-gateway', {
    ...env,
    DATABASE_URL: appUrl('api-gateway'),
    PORT: String(port),
    HOST: '127.0.0.1',
    HEALTH_PORT: String(await freePort()),
    HEALTH_HOST: '127.0.0.1',
  });
  procs['api-gateway'].health = `http://127.0.0.1:${port}/health/ready`;
  await Promise.all(Object.values(procs).map((p) => p.waitReady(p.health)));

  const org = await createOrg(prisma, { plan: 'enterprise' });
  const { token } = await createToken(prisma, org.id);
  const base = `http://127.0.0.1:${port}/v1`;
  const call = async (method, p, body, headers = {}) => {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  // Groups whose CPU is priced: the apps, their Postgres backends, and the shared brokers.
  const backends = async (app) =>
    (await pool.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`, [app])).rows.map(
      (r) => r.pid,
    );
  const groups = {
    ...Object.fromEntries(Object.keys(procs).map((app) => [app, async () => [procs[app].child.pid]])),
    ...Object.fromEntries(Object.keys(procs).map((app) => [`postgres for ${app}`, () => backends(app)])),
    'nats-server (shared)': async () => pidsByComm('nats-server'),
    'redis-server (shared)': async () => pidsByComm('redis-server'),
  };
  // Postgres backends come and go (a pool closes idle ones): the meter samples every group's processes
  // every 200 ms and keeps each one's last reading, so one that exits mid-phase still counts.
  const meter = async () => {
    const before = {};
    const last = {};
    for (const [name, fn] of Object.entries(groups)) {
      before[name] = new Map((await fn()).map((pid) => [pid, cpuSeconds(pid) ?? 0]));
      last[name] = new Map(before[name]);
    }
    const sample = async () => {
      for (const [name, fn] of Object.entries(groups)) {
        for (const pid of new Set([...last[name].keys(), ...(await fn())])) {
          const now = cpuSeconds(pid);
          if (now !== null) last[name].set(pid, now);
        }
      }
    };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        await sample();
        await sleep(200);
      }
    })();
    return async () => {
      sampling = false;
      await sampler;
      await sample();
      const out = {};
      for (const name of Object.keys(groups)) {
        let sum = 0;
        for (const [pid, seconds] of last[name]) sum += seconds - (before[name].get(pid) ?? 0);
        out[name] = sum;
      }
      return out;
    };
  };
  // What each group burns with nothing to do (timers, polls), per second: taken off each phase's figures.
  const IDLE_S = 5;
  const idleRate = async () => {
    await sleep(1500);
    const stopIdle = await meter();
    await sleep(IDLE_S * 1000);
    return Object.fromEntries(Object.entries(await stopIdle()).map(([k, v]) => [k, v / IDLE_S]));
  };
  const perUnit = (cpu, n, idle, seconds) =>
    Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, +((Math.max(0, v - idle[k] * seconds) * 1000) / n).toFixed(3)]));
  const gross = (cpu, n) => Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, +((v * 1000) / n).toFixed(3)]));

  // 1. inbound messages, each delivered to the webhook
  const sub = await call('POST', '/webhooks', { hookUrl: `${receiver.url}/units`, integrationName: ['message.created'] });
  if (sub.status >= 300) throw new Error(`webhook: ${sub.status} ${JSON.stringify(sub.body)}`);
  const ingestPhone = await createPhone(prisma, org.id, { deleted_at: new Date() }); // no session: the stream is its connector
  const phone = {
    org_id: org.id,
    phone_id: ingestPhone.phone_id,
    org_phone: ingestPhone.org_phone,
    chats: Array.from({ length: 200 }, () => `${randomDigits()}@c.us`),
  };
  let idle = await idleRate();
  log(`idle CPU (ms/s): ${JSON.stringify(Object.fromEntries(Object.entries(idle).map(([k, v]) => [k, +(v * 1000).toFixed(1)])))}`);
  let stop = await meter();
  let t0 = Date.now();
  await publishDirect({ nc, namespace, phone, total: CFG.inbound, perEvent: CFG.perEvent });
  await waitFor(() => receiver.requests.filter((r) => r.path === '/units').length >= CFG.inbound, 300_000, 'webhook deliveries');
  const inboundSeconds = (Date.now() - t0) / 1000;
  const inboundCpu = await stop();
  const delivered = receiver.requests.filter((r) => r.path === '/units').length;
  log(`inbound: ${CFG.inbound} ingested and ${delivered} delivered in ${inboundSeconds.toFixed(1)} s (load ${load()})`);
  const inbound = {
    seconds: inboundSeconds,
    delivered,
    idle_cpu_ms_per_s: gross(idle, 1),
    cpu_ms_per_message: perUnit(inboundCpu, CFG.inbound, idle, inboundSeconds),
    gross_cpu_ms_per_message: gross(inboundCpu, CFG.inbound),
  };
  await call('DELETE', `/webhooks/${sub.body[0].id}`);

  // 2. sends
  const phones = [];
  for (let k = 0; k < CFG.phones; k++) {
    const created = await call('POST', '/phones/create', { phone_name: `Units ${k}` });
    const phoneId = created.body.phone_id;
    await waitFor(async () => (await call('GET', '/phones', null, { 'x-phone': phoneId })).body?.wa_state === 'QR', 20_000, 'QR');
    await call('POST', '/sandbox/phones/scan', { number: randomDigits() }, { 'x-phone': phoneId });
    await waitFor(
      async () => (await call('GET', '/phones', null, { 'x-phone': phoneId })).body?.wa_state === 'CONNECTED',
      20_000,
      'connected',
    );
    phones.push(phoneId);
  }
  const sentCount = async () =>
    Number(
      (await pool.query(`SELECT count(*) FROM messages WHERE org_id = $1 AND from_me AND sent_message_id IS NOT NULL`, [org.id])).rows[0]
        .count,
    );
  idle = await idleRate();
  stop = await meter();
  t0 = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < CFG.sends) {
      const i = next++;
      const r = await call(
        'POST',
        '/message/send',
        { chat_id: `91${String(i % 300).padStart(10, '0')}`, message: `Order ${i} shipped, tracking 9F3K${i}` },
        { 'x-phone': phones[i % phones.length] },
      );
      if (r.status !== 200) throw new Error(`send ${i}: ${r.status} ${JSON.stringify(r.body)}`);
    }
  };
  await Promise.all(Array.from({ length: CFG.concurrency }, worker));
  const accepted = (Date.now() - t0) / 1000;
  await waitFor(async () => (await sentCount()) >= CFG.sends, 600_000, 'sends echoed');
  const sendSeconds = (Date.now() - t0) / 1000;
  const sendCpu = await stop();
  log(
    `sends: ${CFG.sends} accepted in ${accepted.toFixed(1)} s, all on the network and in GET messages after ${sendSeconds.toFixed(1)} s (load ${load()})`,
  );
  const sends = {
    seconds: sendSeconds,
    accepted_seconds: accepted,
    idle_cpu_ms_per_s: gross(idle, 1),
    cpu_ms_per_send: perUnit(sendCpu, CFG.sends, idle, sendSeconds),
    gross_cpu_ms_per_send: gross(sendCpu, CFG.sends),
  };

  // Storage a send leaves behind: the send queue's kept jobs in Redis (QUEUE_KEEP_FINISHED_S), and per
  // message the rows of Postgres beyond `messages` (events kept for replay, webhook deliveries and attempts).
  const redis = new Redis(testEnv.redisUrl());
  cleanups.push(async () => redis.quit());
  let redisBytes = 0;
  let redisKeys = 0;
  for (let cursor = '0'; ;) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}:bull:*`, 'COUNT', 1000);
    for (const k of keys) redisBytes += Number((await redis.memory('USAGE', k)) ?? 0);
    redisKeys += keys.length;
    cursor = next;
    if (cursor === '0') break;
  }
  const {
    rows: [pgBytes],
  } = await pool.query(
    `SELECT pg_total_relation_size('outbox_events')::bigint AS outbox, (SELECT count(*) FROM outbox_events)::bigint AS outbox_rows,
            pg_total_relation_size('webhook_deliveries')::bigint + pg_total_relation_size('webhook_attempts')::bigint + pg_total_relation_size('webhook_events')::bigint AS webhooks,
            pg_total_relation_size('messages')::bigint AS messages, (SELECT count(*) FROM messages)::bigint AS message_rows`,
  );
  const storage = {
    redis_bytes_per_kept_send: Math.round(redisBytes / CFG.sends),
    redis_keys: redisKeys,
    outbox_bytes_per_event: Math.round(Number(pgBytes.outbox) / Math.max(1, Number(pgBytes.outbox_rows))),
    webhook_bytes_per_delivery: Math.round(Number(pgBytes.webhooks) / Math.max(1, delivered)),
    messages_bytes_per_row: Math.round(Number(pgBytes.messages) / Math.max(1, Number(pgBytes.message_rows))),
  };
  log(`
storage: ${JSON.stringify(storage)} (small tables: page-granular, an upper bound)`);
  const table = (title, rows) => {
    log(`\n${title}`);
    for (const [k, v] of Object.entries(rows)) if (v > 0.0005) log(`  ${k.padEnd(36)} ${v.toFixed(3)} ms`);
    const own = Object.entries(rows)
      .filter(([k]) => !k.includes('shared'))
      .reduce((a, [, v]) => a + v, 0);
    log(`  ${'total (without the shared brokers)'.padEnd(36)} ${own.toFixed(3)} ms`);
  };
  table('CPU per inbound message ingested and delivered to one webhook (idle rate taken off)', inbound.cpu_ms_per_message);
  table('CPU per sent message (API → queue → session → network → echo ingested; idle rate taken off)', sends.cpu_ms_per_send);
  const out = path.join(ROOT, 'bench/results', `capacity-units-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ cfg: CFG, load_end: os.loadavg(), inbound, sends, storage }, null, 2));
  log(`\nresults: ${out}; load ${load()}`);
}

run(main);
