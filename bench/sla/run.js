#!/usr/bin/env node
'use strict';
/**
 * SLA breaches benchmark (issue 34 aim: "10,000 chats whose SLA deadlines fall in the same minute: every
 * breach fires within 5 s of its deadline, once, with the service killed once"), modelled on bench/tasks.
 * Bounded (about 2 min), loopback only, cleans up.
 *  - BENCH_SLA_WAITS (10000) pending waits of one policy, one per chat, are written to
 *    analytics_sla_timers in one statement: due over BENCH_SLA_SPREAD_MS (60000, one minute) starting
 *    BENCH_SLA_LEAD_MS (3000) from then (0 spread: all in the same millisecond).
 *  - BENCH_ANALYTICS_REPLICAS (2) analytics processes run the SLA pollers (and their outbox relays) on a
 *    throw-away database and NATS namespace, SLA_FIRE_DELAY_MS as set (default 1000: lateness counts from
 *    the deadline, so the delay is part of it). When a third have fired, one replica is SIGKILLed and
 *    started again.
 *  - Fired: the sla.breached outbox row (written in the claim's transaction); lateness = its created_at −
 *    due_at. Published: arrival on <ns>.events.v1.sla.breached − due_at. Counts: waits fired once, twice, never.
 * Build first: bash scripts/build.sh. Results: stdout and bench/results/sla-<time>.json (git-ignored).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { createTestDatabase, AppProcess, freePort, testEnv, randomSuffix, createOrg } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { ensureStreams } = require('@mapi/events');
const { connect } = require('nats');

const N = Number(process.env.BENCH_SLA_WAITS || 10_000);
const SPREAD_MS = Number(process.env.BENCH_SLA_SPREAD_MS ?? 60_000);
const LEAD_MS = Number(process.env.BENCH_SLA_LEAD_MS || 3_000);
const REPLICAS = Number(process.env.BENCH_ANALYTICS_REPLICAS || 2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const summary = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p99: pct(s, 99), max: s[s.length - 1], min: s[0] };
};

async function main() {
  const cleanups = [];
  const namespace = `bs${randomSuffix(3)}`;
  const db = await createTestDatabase('mapi_bench_sla');
  cleanups.push(() => db.drop());
  const prisma = createPrismaClient({ url: db.url, poolSize: 4 });
  cleanups.push(() => prisma.$disconnect());
  const nc = await connect({ servers: testEnv.natsUrl() });
  cleanups.push(() => nc.drain());
  await ensureStreams(nc, namespace);
  const published = new Map();
  const sub = nc.subscribe(`${namespace}.events.v1.sla.breached`);
  void (async () => {
    for await (const m of sub) {
      const e = m.json();
      if (!published.has(e.event_id)) published.set(e.event_id, { at: Date.now(), chat_id: e.data.chat_id, n: 0 });
      published.get(e.event_id).n++;
    }
  })();

  const env = {
    DATABASE_URL: db.url,
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: '5',
    ...(process.env.SLA_FIRE_DELAY_MS ? { SLA_FIRE_DELAY_MS: process.env.SLA_FIRE_DELAY_MS } : {}),
  };
  const start = async () => {
    const port = await freePort();
    const proc = AppProcess.start('analytics', { ...env, HEALTH_PORT: String(port), HEALTH_HOST: '127.0.0.1' });
    await proc.waitReady(`http://127.0.0.1:${port}/health/ready`, 60_000);
    return proc;
  };
  const procs = [];
  cleanups.push(() => Promise.all(procs.map((p) => p.stop())));
  try {
    for (let i = 0; i < REPLICAS; i++) procs.push(await start());
    const org = await createOrg(prisma);
    const policyId = randomUUID();
    const now = new Date();
    await prisma.analyticsSlaPolicy.create({
      data: { policy_id: policyId, org_id: org.id, name: 'bench', kind: 'first_response', minutes: 1, created_at: now, updated_at: now },
    });
    const from = Date.now() + LEAD_MS;
    // chat c<i> is due at from + i·spread/N, armed a minute before (as a message's wait is, SLA_ARM_GRACE_MS long past);
    // one statement, so a slow insert does not eat into the lead time
    await prisma.$executeRaw`
      INSERT INTO analytics_sla_timers (org_id, policy_id, phone_id, chat_id, message_id, created_at, started_at, due_at)
      SELECT ${org.id}::uuid, ${policyId}::uuid, 'bench-phone', 'c' || i || '@c.us', 'm' || i, now() - interval '1 minute', now(),
             to_timestamp((${from}::float8 + floor(i * ${SPREAD_MS}::float8 / ${N})) / 1000)
      FROM generate_series(0, ${N - 1}) AS i`;
    await prisma.$executeRaw`SELECT pg_notify('mapi_sla_timers', ${String(from)})`;
    const dueOf = (i) => from + Math.floor((i * SPREAD_MS) / N);
    const loadBefore = os.loadavg();

    const count = () => prisma.outboxEvent.count({ where: { type: 'sla.breached' } });
    let killedAt = null;
    let backAt = null;
    const deadline = from + SPREAD_MS + 60_000;
    for (;;) {
      const fired = await count();
      if (killedAt === null && fired >= N / 3) {
        await procs[0].kill();
        killedAt = Date.now();
        procs[0] = await start();
        backAt = Date.now();
      }
      if (fired >= N && published.size >= N) break;
      if (Date.now() > deadline) break;
      await sleep(100);
    }
    await sleep(1_000);
    const loadAfter = os.loadavg();
    const rows =
      await prisma.$queryRaw`SELECT (payload->>'chat_id') AS chat_id, substr(split_part(payload->>'chat_id', '@', 1), 2)::int AS i, (EXTRACT(EPOCH FROM created_at) * 1000)::float8 AS at FROM outbox_events WHERE type = 'sla.breached'`;
    const perChat = new Map();
    for (const r of rows) perChat.set(r.chat_id, (perChat.get(r.chat_id) || 0) + 1);
    const fireLate = rows.map((r) => r.at - dueOf(r.i));
    const index = new Map(rows.map((r) => [r.chat_id, r.i]));
    const pubLate = [...published.values()].map((p) => p.at - dueOf(index.get(p.chat_id)));
    const result = {
      waits: N,
      spread_ms: SPREAD_MS,
      replicas: REPLICAS,
      killed_at_ms: killedAt && killedAt - from,
      restarted_at_ms: backAt && backAt - from,
      fire_delay_ms: Number(process.env.SLA_FIRE_DELAY_MS ?? 1_000),
      fired_once: [...perChat.values()].filter((n) => n === 1).length,
      fired_twice_or_more: [...perChat.values()].filter((n) => n > 1).length,
      never_fired: N - perChat.size,
      fired_lateness_ms: summary(fireLate),
      fired_within_5s: fireLate.filter((l) => l >= 0 && l < 5_000).length,
      published_event_ids: published.size,
      republished_ids: [...published.values()].filter((p) => p.n > 1).length,
      published_lateness_ms: pubLate.length ? summary(pubLate) : null,
      load_before: loadBefore.map((x) => x.toFixed(2)),
      load_after: loadAfter.map((x) => x.toFixed(2)),
      cpus: os.cpus().length,
    };
    console.log(JSON.stringify(result, null, 2));
    const dir = path.join(__dirname, '..', 'results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `sla-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(result, null, 2));
  } finally {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
