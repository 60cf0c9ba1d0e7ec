#!/usr/bin/env node
'use strict';
/**
 * Event → first workflow action benchmark (issue 19 aim: "event → first action started p99 < 300 ms at
 * 200 events/s with 1,000 enabled workflows in the organization"). Bounded, loopback only, cleans up.
 *  - BENCH_WORKFLOWS (1000) enabled `message.created` workflows in one organization, spread over
 *    BENCH_PHONES (1000) phones by trigger_metadata.org_phones (workflow i takes phone i % phones), so an
 *    event admits workflows/phones of them. Each one's first action is a validate_action on
 *    message.body: every BENCH_PASS_EVERY-th (10th) passes, the others fail (cheap: no chat read).
 *  - `message.created` events (DomainEvent, as the outbox relay publishes them, Nats-Msg-Id = event id)
 *    published straight into <ns>.events.v1.message.created at BENCH_RATE (200)/s for BENCH_SECONDS (30),
 *    phone j % phones, a distinct chat each; created_at = the moment the publish was handed to JetStream.
 *  - BENCH_AUTOMATION_REPLICAS (2) automation processes, AUTOMATION_RUNS_PER_MINUTE raised to
 *    BENCH_RUNS_PER_MINUTE (1000000: the default 600 per organization would skip all but 600 a minute).
 *  - Latency: the first step's started_at (its claim) − the event's created_at, per run; also the
 *    run row's started_at (the intake's commit) − created_at.
 * Build first: bash scripts/build.sh. Results: stdout and bench/results/intake-<time>.json (git-ignored).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { AppProcess, freePort, testEnv, createOrg } = require('@mapi/testing');
const { eventSubject } = require('@mapi/events');
const { JSONCodec } = require('nats');
const { openWorld, summary } = require('./world');
const summaryOf = (xs) => summary(xs, [50, 90, 99]);

const WORKFLOWS = Number(process.env.BENCH_WORKFLOWS || 1_000);
const PHONES = Number(process.env.BENCH_PHONES || 1_000);
const PASS_EVERY = Number(process.env.BENCH_PASS_EVERY || 10);
const RATE = Number(process.env.BENCH_RATE || 200);
const SECONDS = Number(process.env.BENCH_SECONDS || 30);
const REPLICAS = Number(process.env.BENCH_AUTOMATION_REPLICAS || 2);
const RPM = process.env.BENCH_RUNS_PER_MINUTE || '1000000';
const codec = JSONCodec();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const cleanups = [];
  const { namespace, db, prisma, nc } = await openWorld('bi', cleanups);

  const env = {
    DATABASE_URL: db.url, NATS_URL: testEnv.natsUrl(), NAMESPACE: namespace, NODE_ENV: 'production', LOG_LEVEL: 'warn',
    AUTOMATION_RUNS_PER_MINUTE: RPM,
  };
  const procs = [];
  cleanups.push(() => Promise.all(procs.map((p) => p.stop())));
  try {
    const org = await createOrg(prisma);
    const phoneId = (k) => `bench-phone-${k}`;
    const created = new Date(Date.now() - 60_000);
    const cond = (i) => ({
      operator: 'AND',
      conditions: [{ id: 'c', variable_name: 'message.body', variable_type: 'string', condition: i % PASS_EVERY === 0 ? 'CONTAINS' : 'EQUALS', value: i % PASS_EVERY === 0 ? 'order' : `never-${i}` }],
    });
    await prisma.automationWorkflow.createMany({
      data: Array.from({ length: WORKFLOWS }, (_, i) => ({
        id: randomUUID(), org_id: org.id, name: `wf ${i}`, trigger: 'message.created', is_active: true, updated_by: 'bench', created_at: created, updated_at: created,
        trigger_metadata: { org_phones: [phoneId(i % PHONES)], allow_internal_messages: false, first_action_id: 'check' },
        actions: [{ id: 'check', action_metadata: { type: 'validate_action', metadata: cond(i) }, next: null }],
      })),
    });
    for (let i = 0; i < REPLICAS; i++) {
      const port = await freePort();
      const proc = AppProcess.start('automation', { ...env, HEALTH_PORT: String(port), HEALTH_HOST: '127.0.0.1' });
      await proc.waitReady(`http://127.0.0.1:${port}/health/ready`, 60_000);
      procs.push(proc);
    }
    await sleep(1_000);

    const js = nc.jetstream();
    const total = RATE * SECONDS;
    const loadBefore = os.loadavg();
    const t0 = Date.now();
    const pending = new Set();
    const publishedAt = new Map();
    for (let j = 0; j < total; j++) {
      const wait = t0 + (j * 1000) / RATE - Date.now();
      if (wait > 0) await sleep(wait);
      const event_id = randomUUID();
      const chat = `${String(100000000000 + j)}@c.us`;
      const at = new Date();
      const event = {
        event_id, event_type: 'message.created', org_id: org.id, phone_id: phoneId(j % PHONES), created_at: at.toISOString(),
        data: { message_id: `m${j}`, chat_id: chat, org_phone: '', from_me: false, sender_phone: chat.split('@')[0], body: `order #${j} please`, message_type: 'chat', timestamp: at.toISOString() },
        previous_attributes: null,
      };
      publishedAt.set(event_id, at.getTime());
      const p = js.publish(eventSubject(namespace, 'message.created'), codec.encode(event), { msgID: event_id }).finally(() => pending.delete(p));
      pending.add(p);
    }
    await Promise.all(pending);
    const offeredSeconds = (Date.now() - t0) / 1000;
    const expectedRuns = Array.from({ length: total }, (_, j) => Math.floor(WORKFLOWS / PHONES) + ((j % PHONES) < WORKFLOWS % PHONES ? 1 : 0)).reduce((a, b) => a + b, 0);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [done] = await prisma.$queryRaw`SELECT count(*)::int AS n FROM automation_steps WHERE started_at IS NOT NULL`;
      if (done.n >= expectedRuns || Date.now() > deadline) break;
      await sleep(250);
    }
    const loadAfter = os.loadavg();
    const rows = await prisma.$queryRaw`
      SELECT r.event_id::text AS event_id, r.status, (EXTRACT(EPOCH FROM r.started_at) * 1000)::float8 AS run_at, (EXTRACT(EPOCH FROM s.started_at) * 1000)::float8 AS step_at, s.result
      FROM automation_runs r LEFT JOIN automation_steps s ON s.run_id = r.run_id`;
    const firstAction = rows.filter((r) => r.step_at !== null).map((r) => r.step_at - publishedAt.get(r.event_id));
    const runRow = rows.map((r) => r.run_at - publishedAt.get(r.event_id));
    const result = {
      workflows: WORKFLOWS, phones: PHONES, pass_every: PASS_EVERY, rate: RATE, seconds: SECONDS, replicas: REPLICAS, runs_per_minute: Number(RPM),
      events: total, offered_per_s: +(total / offeredSeconds).toFixed(1), expected_runs: expectedRuns, runs: rows.length,
      runs_by_status: rows.reduce((m, r) => ({ ...m, [r.status]: (m[r.status] || 0) + 1 }), {}),
      passed: rows.filter((r) => r.result && r.result.passed === true).length,
      first_action_started_ms: summaryOf(firstAction),
      run_row_committed_ms: summaryOf(runRow),
      load_before: loadBefore.map((x) => x.toFixed(2)), load_after: loadAfter.map((x) => x.toFixed(2)), cpus: os.cpus().length,
    };
    console.log(JSON.stringify(result, null, 2));
    const dir = path.join(__dirname, '..', 'results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `intake-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(result, null, 2));
  } finally {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
