'use strict';
/**
 * The harness of the durable-timer benches (bench/tasks: task reminders; bench/sla: SLA breaches): N
 * timers armed by the bench over SPREAD_MS starting LEAD_MS from now, REPLICAS processes of the app
 * firing them on a throw-away database and NATS namespace, one SIGKILLed and started again when a
 * third have fired. Fired = the event's outbox row (written in the claim's transaction); lateness = its
 * created_at − the timer's due time. Published = the event's arrival on its subject − the due time.
 * Counts: timers fired once, twice or more, never. Result: stdout and bench/results/<name>-<time>.json.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createTestDatabase, AppProcess, freePort, testEnv, randomSuffix, createOrg } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { ensureStreams } = require('@mapi/events');
const { connect } = require('nats');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const summary = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p99: pct(s, 99), max: s[s.length - 1], min: s[0] };
};

/**
 * @param spec {{
 *   name: string, app: string, eventType: string, env?: Record<string, string>,
 *   n: number, spreadMs: number, leadMs: number, replicas: number,
 *   arm: (prisma, orgId: string, from: number) => Promise<void>, // timer i due at from + floor(i·spreadMs/n)
 *   firedRows: (prisma) => Promise<{ key: string, i: number, at: number }[]>,
 *   eventKey: (event) => string,
 *   extra?: Record<string, unknown>,
 * }}
 */
async function runDurableTimerBench(spec) {
  const { n: N, spreadMs: SPREAD_MS, leadMs: LEAD_MS, replicas: REPLICAS } = spec;
  const cleanups = [];
  const namespace = `b${spec.name.slice(0, 3)}${randomSuffix(3)}`;
  const db = await createTestDatabase(`mapi_bench_${spec.name}`);
  cleanups.push(() => db.drop());
  const prisma = createPrismaClient({ url: db.url, poolSize: 4 });
  cleanups.push(() => prisma.$disconnect());
  const nc = await connect({ servers: testEnv.natsUrl() });
  cleanups.push(() => nc.drain());
  await ensureStreams(nc, namespace);
  const published = new Map();
  const sub = nc.subscribe(`${namespace}.events.v1.${spec.eventType}`);
  void (async () => {
    for await (const m of sub) {
      const e = m.json();
      if (!published.has(e.event_id)) published.set(e.event_id, { at: Date.now(), key: spec.eventKey(e), n: 0 });
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
    ...spec.env,
  };
  const start = async () => {
    const port = await freePort();
    const proc = AppProcess.start(spec.app, { ...env, HEALTH_PORT: String(port), HEALTH_HOST: '127.0.0.1' });
    await proc.waitReady(`http://127.0.0.1:${port}/health/ready`, 60_000);
    return proc;
  };
  const procs = [];
  cleanups.push(() => Promise.all(procs.map((p) => p.stop())));
  try {
    for (let i = 0; i < REPLICAS; i++) procs.push(await start());
    const org = await createOrg(prisma);
    const from = Date.now() + LEAD_MS;
    const dueOf = (i) => from + Math.floor((i * SPREAD_MS) / N);
    await spec.arm(prisma, org.id, from);
    const loadBefore = os.loadavg();

    const count = () => prisma.outboxEvent.count({ where: { type: spec.eventType } });
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
    const rows = await spec.firedRows(prisma);
    const perKey = new Map();
    for (const r of rows) perKey.set(r.key, (perKey.get(r.key) || 0) + 1);
    const fireLate = rows.map((r) => r.at - dueOf(r.i));
    const index = new Map(rows.map((r) => [r.key, r.i]));
    const pubLate = [...published.values()].map((p) => p.at - dueOf(index.get(p.key)));
    const result = {
      timers: N,
      spread_ms: SPREAD_MS,
      replicas: REPLICAS,
      killed_at_ms: killedAt && killedAt - from,
      restarted_at_ms: backAt && backAt - from,
      ...spec.extra,
      fired_once: [...perKey.values()].filter((c) => c === 1).length,
      fired_twice_or_more: [...perKey.values()].filter((c) => c > 1).length,
      never_fired: N - perKey.size,
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
    fs.writeFileSync(
      path.join(dir, `${spec.name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
      JSON.stringify(result, null, 2),
    );
  } finally {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
  }
}

/** Runs a bench's main and exits 0, or prints the error and exits 1. */
function runMain(main) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

module.exports = { runDurableTimerBench, runMain };
