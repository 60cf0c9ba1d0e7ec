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
 *    published straight into <ns>.events.v1.message.created at BENCH_RATE (200)/s for BENCH_WARMUP_SECONDS
 *    (5: reported apart) then BENCH_SECONDS (30, the figures),
 *    phone j % phones, a distinct chat each; created_at = the moment the publish was handed to JetStream.
 *  - BENCH_AUTOMATION_REPLICAS (2) automation processes, AUTOMATION_RUNS_PER_MINUTE raised to
 *    BENCH_RUNS_PER_MINUTE (1000000: the default 600 per organization would skip all but 600 a minute).
 *  - Latency: the first step's started_at (its claim, or — a step the intake handed to its own
 *    replica's executor — when that executor began it) − the event's created_at, per run; also the
 *    step's finished_at (its outcome recorded) and the run row's started_at (the intake's batch) − created_at.
 *  - BENCH_BEFORE_ROOT (a built checkout of an earlier commit): the same case also runs that build's
 *    automation app, each build on its own database and namespace, BENCH_ROUNDS (1) times in
 *    alternating order, so the before/after ratio comes from one sitting.
 * Build first: bash scripts/build.sh. Results: stdout and bench/results/intake-<time>.json (git-ignored).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { testEnv, createOrg } = require('@mapi/testing');
const { eventSubject } = require('@mapi/events');
const { JSONCodec } = require('nats');
const { openWorld, summary } = require('./world');
const { startReplica, ROOT } = require('../lib/replicas');
const summaryOf = (xs) => summary(xs, [50, 90, 99]);

const WORKFLOWS = Number(process.env.BENCH_WORKFLOWS || 1_000);
const PHONES = Number(process.env.BENCH_PHONES || 1_000);
const PASS_EVERY = Number(process.env.BENCH_PASS_EVERY || 10);
const RATE = Number(process.env.BENCH_RATE || 200);
const SECONDS = Number(process.env.BENCH_SECONDS || 30);
const REPLICAS = Number(process.env.BENCH_AUTOMATION_REPLICAS || 2);
const RPM = process.env.BENCH_RUNS_PER_MINUTE || '1000000';
const BEFORE_ROOT = process.env.BENCH_BEFORE_ROOT ? path.resolve(process.env.BENCH_BEFORE_ROOT) : '';
const ROUNDS = Number(process.env.BENCH_ROUNDS || 1);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const codec = JSONCodec();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One run of the case against the automation app of `root`, on a database and namespace of its own. */
async function runOnce(label, root) {
  const cleanups = [];
  const { namespace, db, prisma, nc } = await openWorld('bi', cleanups);

  const env = {
    DATABASE_URL: db.url,
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
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
      conditions: [
        {
          id: 'c',
          variable_name: 'message.body',
          variable_type: 'string',
          condition: i % PASS_EVERY === 0 ? 'CONTAINS' : 'EQUALS',
          value: i % PASS_EVERY === 0 ? 'order' : `never-${i}`,
        },
      ],
    });
    await prisma.automationWorkflow.createMany({
      data: Array.from({ length: WORKFLOWS }, (_, i) => ({
        id: randomUUID(),
        org_id: org.id,
        name: `wf ${i}`,
        trigger: 'message.created',
        is_active: true,
        updated_by: 'bench',
        created_at: created,
        updated_at: created,
        trigger_metadata: { org_phones: [phoneId(i % PHONES)], allow_internal_messages: false, first_action_id: 'check' },
        actions: [{ id: 'check', action_metadata: { type: 'validate_action', metadata: cond(i) }, next: null }],
      })),
    });
    for (let i = 0; i < REPLICAS; i++) procs.push(await startReplica('automation', env, { root }));
    await sleep(1_000);

    const js = nc.jetstream();
    // BENCH_WARMUP_SECONDS at the same rate first: a replica's first seconds (its workflow cache read,
    // its pool's connections opened, code not yet optimised) are reported apart, the aim is the steady rate
    const warmupEvents = RATE * WARMUP;
    const total = warmupEvents + RATE * SECONDS;
    const loadBefore = os.loadavg();
    const t0 = Date.now();
    const pending = new Set();
    const publishedAt = new Map();
    const warmupIds = new Set();
    for (let j = 0; j < total; j++) {
      const wait = t0 + (j * 1000) / RATE - Date.now();
      if (wait > 0) await sleep(wait);
      const event_id = randomUUID();
      const chat = `${String(100000000000 + j)}@c.us`;
      const at = new Date();
      const event = {
        event_id,
        event_type: 'message.created',
        org_id: org.id,
        phone_id: phoneId(j % PHONES),
        created_at: at.toISOString(),
        data: {
          message_id: `m${j}`,
          chat_id: chat,
          org_phone: '',
          from_me: false,
          sender_phone: chat.split('@')[0],
          body: `order #${j} please`,
          message_type: 'chat',
          timestamp: at.toISOString(),
        },
        previous_attributes: null,
      };
      publishedAt.set(event_id, at.getTime());
      if (j < warmupEvents) warmupIds.add(event_id);
      const p = js
        .publish(eventSubject(namespace, 'message.created'), codec.encode(event), { msgID: event_id })
        .finally(() => pending.delete(p));
      pending.add(p);
    }
    await Promise.all(pending);
    const offeredSeconds = (Date.now() - t0) / 1000;
    const expectedRuns = Array.from(
      { length: total },
      (_, j) => Math.floor(WORKFLOWS / PHONES) + (j % PHONES < WORKFLOWS % PHONES ? 1 : 0),
    ).reduce((a, b) => a + b, 0);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [done] = await prisma.$queryRaw`SELECT count(*)::int AS n FROM automation_steps WHERE started_at IS NOT NULL`;
      if (done.n >= expectedRuns || Date.now() > deadline) break;
      await sleep(250);
    }
    const loadAfter = os.loadavg();
    const rows = await prisma.$queryRaw`
      SELECT r.event_id::text AS event_id, r.status, (EXTRACT(EPOCH FROM r.started_at) * 1000)::float8 AS run_at, (EXTRACT(EPOCH FROM s.started_at) * 1000)::float8 AS step_at,
        (EXTRACT(EPOCH FROM s.finished_at) * 1000)::float8 AS step_done_at, s.attempts, s.result
      FROM automation_runs r LEFT JOIN automation_steps s ON s.run_id = r.run_id`;
    const measured = rows.filter((r) => !warmupIds.has(r.event_id));
    const firstAction = measured.filter((r) => r.step_at !== null).map((r) => r.step_at - publishedAt.get(r.event_id));
    const runRow = measured.map((r) => r.run_at - publishedAt.get(r.event_id));
    const recorded = measured.filter((r) => r.step_done_at !== null).map((r) => r.step_done_at - publishedAt.get(r.event_id));
    const warmup = rows.filter((r) => warmupIds.has(r.event_id) && r.step_at !== null).map((r) => r.step_at - publishedAt.get(r.event_id));
    const result = {
      label,
      root,
      workflows: WORKFLOWS,
      phones: PHONES,
      pass_every: PASS_EVERY,
      rate: RATE,
      seconds: SECONDS,
      replicas: REPLICAS,
      runs_per_minute: Number(RPM),
      events: total,
      offered_per_s: +(total / offeredSeconds).toFixed(1),
      expected_runs: expectedRuns,
      runs: rows.length,
      runs_by_status: rows.reduce((m, r) => ({ ...m, [r.status]: (m[r.status] || 0) + 1 }), {}),
      passed: rows.filter((r) => r.result && r.result.passed === true).length,
      steps_run_more_than_once: rows.filter((r) => r.attempts > 1).length,
      warmup_seconds: WARMUP,
      warmup_first_action_started_ms: summaryOf(warmup),
      first_action_started_ms: summaryOf(firstAction),
      first_action_recorded_ms: summaryOf(recorded),
      run_row_committed_ms: summaryOf(runRow),
      // p99 of first action started per 5 s of publishing: a tail in one slice is a stall (the machine), in all the path
      first_action_p99_by_5s: Array.from({ length: Math.ceil((WARMUP + SECONDS) / 5) }, (_, k) =>
        rows.filter((r) => r.step_at !== null && Math.floor((publishedAt.get(r.event_id) - t0) / 5000) === k),
      ).map((slice) => Math.round(summaryOf(slice.map((r) => r.step_at - publishedAt.get(r.event_id))).p99 ?? 0)),
      load_before: loadBefore.map((x) => x.toFixed(2)),
      load_after: loadAfter.map((x) => x.toFixed(2)),
      cpus: os.cpus().length,
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
  }
}

async function main() {
  const builds = [['now', ROOT], ...(BEFORE_ROOT ? [['before', BEFORE_ROOT]] : [])];
  const results = [];
  for (let round = 0; round < ROUNDS; round++) {
    // the order alternates by round, so neither build always runs first
    for (const [label, root] of round % 2 ? [...builds].reverse() : builds) results.push({ round, ...(await runOnce(label, root)) });
  }
  const line = (r) =>
    `${r.label.padEnd(6)} round ${r.round}: first action started p50 ${Math.round(r.first_action_started_ms.p50)} / p90 ${Math.round(r.first_action_started_ms.p90)} / p99 ${Math.round(r.first_action_started_ms.p99)} ms, recorded p99 ${Math.round(r.first_action_recorded_ms.p99)} ms, run row p99 ${Math.round(r.run_row_committed_ms.p99)} ms, warm-up p99 ${Math.round(r.warmup_first_action_started_ms.p99 ?? 0)} ms, runs ${r.runs}/${r.expected_runs}, load ${r.load_before[0]} → ${r.load_after[0]}; p99 by 5 s ${r.first_action_p99_by_5s.join(' ')}`;
  console.log(`\n${results.map(line).join('\n')}`);
  if (BEFORE_ROOT) {
    for (let round = 0; round < ROUNDS; round++) {
      const [now, before] = ['now', 'before'].map((l) => results.find((r) => r.round === round && r.label === l));
      const ratio = (k, p) => (now[k][p] / before[k][p]).toFixed(2);
      console.log(
        `round ${round}: now/before first action started p50 ${ratio('first_action_started_ms', 'p50')}x, p99 ${ratio('first_action_started_ms', 'p99')}x; run row p99 ${ratio('run_row_committed_ms', 'p99')}x`,
      );
    }
  }
  const dir = path.join(__dirname, '..', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `intake-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(results, null, 2));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
