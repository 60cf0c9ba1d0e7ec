#!/usr/bin/env node
'use strict';
/**
 * Task reminders benchmark (issue 17 aim: "10,000 reminders due in the same minute all fire within 5 s
 * of their time, none twice, with the service killed once in between"). Bounded (well under 2 min),
 * loopback only, cleans up.
 *  - BENCH_REMINDERS (10000) todo tasks are written, then armed in one statement: due over
 *    BENCH_REMINDER_SPREAD_MS (20000) starting BENCH_REMINDER_LEAD_MS (3000) from then (0 spread: all
 *    in the same millisecond).
 *  - BENCH_INBOX_REPLICAS (2) inbox processes run the reminder pollers (and their outbox relays) on a
 *    throw-away database and NATS namespace. When a third of the reminders have fired, one replica is
 *    SIGKILLed and started again (with one replica the others wait for the restart).
 *  - Fired: the task.reminder outbox row (written in the claim's transaction); lateness = its
 *    created_at − remind_at. Published: arrival of the event on <ns>.events.v1.task.reminder (JetStream
 *    publish, a core subscription sees it) − remind_at. Counts: reminders fired once, twice, never.
 * Build first: bash scripts/build.sh. Results: stdout and bench/results/tasks-<time>.json (git-ignored).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { createTestDatabase, AppProcess, freePort, testEnv, randomSuffix, createOrg } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { ensureStreams } = require('@mapi/events');
const { connect } = require('nats');

const N = Number(process.env.BENCH_REMINDERS || 10_000);
const SPREAD_MS = Number(process.env.BENCH_REMINDER_SPREAD_MS ?? 20_000);
const LEAD_MS = Number(process.env.BENCH_REMINDER_LEAD_MS || 3_000);
const REPLICAS = Number(process.env.BENCH_INBOX_REPLICAS || 2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const summary = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p99: pct(s, 99), max: s[s.length - 1], min: s[0] };
};

async function main() {
  const cleanups = [];
  const namespace = `bt${randomSuffix(3)}`;
  const db = await createTestDatabase('mapi_bench_tasks');
  cleanups.push(() => db.drop());
  const prisma = createPrismaClient({ url: db.url, poolSize: 4 });
  cleanups.push(() => prisma.$disconnect());
  const nc = await connect({ servers: testEnv.natsUrl() });
  cleanups.push(() => nc.drain());
  await ensureStreams(nc, namespace);
  const published = new Map();
  const sub = nc.subscribe(`${namespace}.events.v1.task.reminder`);
  void (async () => {
    for await (const m of sub) {
      const e = m.json();
      if (!published.has(e.event_id)) published.set(e.event_id, { at: Date.now(), task_id: e.data.task_id, n: 0 });
      published.get(e.event_id).n++;
    }
  })();

  const env = { DATABASE_URL: db.url, NATS_URL: testEnv.natsUrl(), NAMESPACE: namespace, NODE_ENV: 'production', LOG_LEVEL: 'warn' };
  const start = async () => {
    const port = await freePort();
    const proc = AppProcess.start('inbox', { ...env, HEALTH_PORT: String(port), HEALTH_HOST: '127.0.0.1' });
    await proc.waitReady(`http://127.0.0.1:${port}/health/ready`, 60_000);
    return proc;
  };
  const procs = [];
  cleanups.push(() => Promise.all(procs.map((p) => p.stop())));
  try {
    for (let i = 0; i < REPLICAS; i++) procs.push(await start());
    const org = await createOrg(prisma);
    const ids = Array.from({ length: N }, () => randomUUID());
    for (let i = 0; i < N; i += 2_000) {
      await prisma.inboxTask.createMany({
        data: ids.slice(i, i + 2_000).map((task_id, j) => ({
          task_id,
          org_id: org.id,
          type: 'todo',
          title: `r${i + j}`,
          created_by: 'bench',
          last_updated_by: 'bench',
        })),
      });
    }
    const from = Date.now() + LEAD_MS;
    await prisma.$executeRaw`UPDATE inbox_tasks SET remind_at = to_timestamp((${from}::float8 + floor(substr(title, 2)::int * ${SPREAD_MS}::float8 / ${N})) / 1000)`;
    await prisma.$executeRaw`SELECT pg_notify('mapi_task_reminders', ${String(from)})`;
    const dueOf = (i) => from + Math.floor((i * SPREAD_MS) / N);
    const loadBefore = os.loadavg();

    const count = () => prisma.outboxEvent.count({ where: { type: 'task.reminder' } });
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
      await prisma.$queryRaw`SELECT (payload->>'task_id') AS task_id, substr(payload->>'title', 2)::int AS i, (EXTRACT(EPOCH FROM created_at) * 1000)::float8 AS at FROM outbox_events WHERE type = 'task.reminder'`;
    const perTask = new Map();
    for (const r of rows) perTask.set(r.task_id, (perTask.get(r.task_id) || 0) + 1);
    const fireLate = rows.map((r) => r.at - dueOf(r.i));
    const title = new Map(rows.map((r) => [r.task_id, r.i]));
    const pubLate = [...published.values()].map((p) => p.at - dueOf(title.get(p.task_id)));
    const result = {
      reminders: N,
      spread_ms: SPREAD_MS,
      replicas: REPLICAS,
      killed_at_ms: killedAt && killedAt - from,
      restarted_at_ms: backAt && backAt - from,
      fired_once: [...perTask.values()].filter((n) => n === 1).length,
      fired_twice_or_more: [...perTask.values()].filter((n) => n > 1).length,
      never_fired: N - perTask.size,
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
    fs.writeFileSync(path.join(dir, `tasks-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(result, null, 2));
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
