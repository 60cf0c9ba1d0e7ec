#!/usr/bin/env node
'use strict';
/**
 * Workflow delays benchmark (issue 19 aim: "10,000 delayed actions due in one minute fire within 1 s of
 * their time, none twice, with the worker killed once"). Bounded (about 2 min), loopback only, cleans up.
 *  - One workflow `delay 1 minute → notify_http`; BENCH_DELAYED (10000) of its runs are seeded in SQL as
 *    the engine leaves them once the delay step ran (RunStore.record): the run `running`, the delay step
 *    `completed`, the notify_http step `pending` with its due_at. The steps come due over
 *    BENCH_DELAY_SPREAD_MS (60000) starting BENCH_DELAY_LEAD_MS (3000) from then (0 spread: all in the
 *    same millisecond). Each run's copy of the definition names its own receiver path (/hit/<i>).
 *  - BENCH_AUTOMATION_REPLICAS (2) automation processes (their step executors) on a throw-away database
 *    and NATS namespace, AUTOMATION_STEP_LEASE_MS = BENCH_LEASE_MS (the default 60000 unless set).
 *    When a third of the actions have reached the receiver, one replica is SIGKILLed and started again.
 *  - Fired: the receiver's first request for a run (the action's effect); lateness = its arrival − due_at.
 *    Also the step's started_at (its first claim) − due_at from automation_steps. Counts: actions that
 *    reached the receiver once, twice or more (the same idempotency key again: a step re-run after its
 *    executor died between the call and its recording), never; steps with attempts > 1.
 * Build first: bash scripts/build.sh. Results: stdout and bench/results/delays-<time>.json (git-ignored).
 */
const fs = require('node:fs');
const os = require('node:os');
const http = require('node:http');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { AppProcess, freePort, testEnv, createOrg } = require('@mapi/testing');
const { openWorld, summary } = require('./world');
const summaryOf = (xs) => summary(xs, [50, 99, 99.9]);

const N = Number(process.env.BENCH_DELAYED || 10_000);
const SPREAD_MS = Number(process.env.BENCH_DELAY_SPREAD_MS ?? 60_000);
const LEAD_MS = Number(process.env.BENCH_DELAY_LEAD_MS || 3_000);
const REPLICAS = Number(process.env.BENCH_AUTOMATION_REPLICAS || 2);
const LEASE_MS = process.env.BENCH_LEASE_MS;
/** Kill only once some step is under a lease (one of the two replicas is mid-round: about even odds it is the killed one). */
const KILL_MID_ROUND = process.env.BENCH_KILL_MID_ROUND === '1';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const cleanups = [];
  const { namespace, db, prisma, nc } = await openWorld('bd', cleanups);

  // the receiver: every request's arrival per run index and idempotency key
  const hits = new Map();
  const receiver = http.createServer((req, res) => {
    const at = Date.now();
    req.resume();
    req.on('end', () => {
      const i = Number(req.url.split('/')[2]);
      if (!hits.has(i)) hits.set(i, { at: [], keys: new Set() });
      hits.get(i).at.push(at);
      hits.get(i).keys.add(req.headers['idempotency-key']);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => receiver.close(r)));
  const hookUrl = `http://127.0.0.1:${receiver.address().port}`;

  const env = {
    DATABASE_URL: db.url,
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    AUTOMATION_HTTP_ALLOW_CIDRS: '127.0.0.1/32',
    ...(LEASE_MS ? { AUTOMATION_STEP_LEASE_MS: LEASE_MS } : {}),
  };
  const start = async () => {
    const port = await freePort();
    const proc = AppProcess.start('automation', { ...env, HEALTH_PORT: String(port), HEALTH_HOST: '127.0.0.1' });
    await proc.waitReady(`http://127.0.0.1:${port}/health/ready`, 60_000);
    return proc;
  };
  const procs = [];
  cleanups.push(() => Promise.all(procs.map((p) => p.stop())));
  try {
    for (let i = 0; i < REPLICAS; i++) procs.push(await start());
    const org = await createOrg(prisma);
    const workflowId = randomUUID();
    const actions = (i) => [
      { id: 'wait', action_metadata: { type: 'delay', metadata: { delay: '1 minutes' } }, next: 'notify' },
      {
        id: 'notify',
        action_metadata: { type: 'notify_http', metadata: { url: `${hookUrl}/hit/${i}`, method: 'POST', body: '{}' } },
        next: null,
      },
    ];
    const trigger_metadata = { org_phones: [], allow_internal_messages: false, first_action_id: 'wait' };
    await prisma.automationWorkflow.create({
      data: {
        id: workflowId,
        org_id: org.id,
        name: 'bench delays',
        trigger: 'message.created',
        trigger_metadata,
        actions: actions('x'),
        is_active: true,
        updated_by: 'bench',
      },
    });
    const runIds = Array.from({ length: N }, () => randomUUID());
    const t0 = new Date(Date.now() - 60_000);
    for (let i = 0; i < N; i += 1_000) {
      const slice = runIds.slice(i, i + 1_000);
      await prisma.automationRun.createMany({
        data: slice.map((run_id, j) => {
          const event_id = randomUUID();
          return {
            run_id,
            org_id: org.id,
            workflow_id: workflowId,
            event_id,
            event_type: 'message.created',
            phone_id: null,
            chat_id: null,
            event: { event_id, event_type: 'message.created', org_id: org.id, created_at: t0.toISOString(), data: { body: `m${i + j}` } },
            definition: { trigger: 'message.created', trigger_metadata, actions: actions(i + j) },
            status: 'running',
            started_at: t0,
          };
        }),
      });
      await prisma.automationStep.createMany({
        data: slice.map((run_id) => ({
          step_id: randomUUID(),
          run_id,
          org_id: org.id,
          action_id: 'wait',
          action_type: 'delay',
          status: 'completed',
          due_at: t0,
          attempts: 1,
          result: { delay_ms: 60_000 },
          created_at: t0,
          started_at: t0,
          finished_at: t0,
        })),
      });
      // pending, due far away until armed below (so none runs while the rest are written)
      await prisma.automationStep.createMany({
        data: slice.map((run_id) => ({
          step_id: randomUUID(),
          run_id,
          org_id: org.id,
          action_id: 'notify',
          action_type: 'notify_http',
          status: 'pending',
          due_at: new Date(Date.now() + 3_600_000),
          created_at: new Date(t0.getTime() + 1),
          attempts: 0,
        })),
      });
    }
    const index = new Map(runIds.map((id, i) => [id, i]));
    const from = Date.now() + LEAD_MS;
    const dueOf = (i) => from + Math.floor((i * SPREAD_MS) / N);
    // arm: due_at from the run's index (its receiver path)
    await prisma.$executeRaw`
      UPDATE automation_steps s SET due_at = to_timestamp((${from}::float8 + floor(substr(r.event->'data'->>'body', 2)::int * ${SPREAD_MS}::float8 / ${N})) / 1000)
      FROM automation_runs r WHERE r.run_id = s.run_id AND s.action_id = 'notify'`;
    await prisma.$executeRaw`SELECT pg_notify('mapi_automation_steps', '')`;
    const loadBefore = os.loadavg();

    let killedAt = null;
    let backAt = null;
    let heldAtKill = null;
    const deadline = from + SPREAD_MS + 90_000 + Number(LEASE_MS || 60_000);
    for (;;) {
      const fired = hits.size;
      const leasedNow = () => prisma.automationStep.count({ where: { status: 'pending', claimed_until: { gt: new Date() } } });
      if (killedAt === null && fired >= N / 3 && (!KILL_MID_ROUND || (await leasedNow()) > 0)) {
        await procs[0].kill();
        killedAt = Date.now();
        // steps held under a live lease just after the kill: the dead replica's (re-run when their lease ends) and the live one's
        heldAtKill = await prisma.automationStep.count({ where: { status: 'pending', claimed_until: { gt: new Date() } } });
        procs[0] = await start();
        backAt = Date.now();
      }
      if (fired >= N) {
        const pending = await prisma.automationStep.count({ where: { status: 'pending' } });
        if (!pending) break;
      }
      if (Date.now() > deadline) break;
      await sleep(killedAt === null && KILL_MID_ROUND && hits.size >= N / 3 ? 2 : 100);
    }
    await sleep(1_000);
    const loadAfter = os.loadavg();
    const steps = await prisma.$queryRaw`
      SELECT run_id, status, attempts, (EXTRACT(EPOCH FROM started_at) * 1000)::float8 AS started, (EXTRACT(EPOCH FROM finished_at) * 1000)::float8 AS finished
      FROM automation_steps WHERE action_id = 'notify'`;
    const runs = await prisma.automationRun.groupBy({ by: ['status'], _count: true });
    const firstLate = [...hits.entries()].map(([i, h]) => Math.min(...h.at) - dueOf(i));
    const startLate = steps.filter((s) => s.started !== null).map((s) => s.started - dueOf(index.get(s.run_id)));
    const recordLate = steps.filter((s) => s.finished !== null).map((s) => s.finished - dueOf(index.get(s.run_id)));
    const result = {
      delayed_actions: N,
      spread_ms: SPREAD_MS,
      kill_mid_round: KILL_MID_ROUND,
      replicas: REPLICAS,
      lease_ms: Number(LEASE_MS || 60_000),
      killed_at_ms: killedAt && killedAt - from,
      restarted_at_ms: backAt && backAt - from,
      leased_steps_just_after_kill: heldAtKill,
      reached_once: [...hits.values()].filter((h) => h.at.length === 1).length,
      reached_twice_or_more: [...hits.values()].filter((h) => h.at.length > 1).length,
      keys_per_action_max: Math.max(...[...hits.values()].map((h) => h.keys.size)),
      never_reached: N - hits.size,
      steps_attempts_over_1: steps.filter((s) => s.attempts > 1).length,
      steps_by_status: steps.reduce((m, s) => ({ ...m, [s.status]: (m[s.status] || 0) + 1 }), {}),
      runs_by_status: Object.fromEntries(runs.map((r) => [r.status, r._count])),
      reached_lateness_ms: summaryOf(firstLate),
      reached_within_1s: firstLate.filter((l) => l >= -50 && l <= 1_000).length,
      // by when the action was due: before the kill, in the 10 s after it (the takeover and the restart), later
      reached_lateness_by_due_ms:
        killedAt === null
          ? null
          : {
              before_kill: summaryOf(
                [...hits.entries()].filter(([i]) => dueOf(i) < killedAt).map(([i, h]) => Math.min(...h.at) - dueOf(i)),
              ),
              kill_to_10s_after: summaryOf(
                [...hits.entries()]
                  .filter(([i]) => dueOf(i) >= killedAt && dueOf(i) < killedAt + 10_000)
                  .map(([i, h]) => Math.min(...h.at) - dueOf(i)),
              ),
              later: summaryOf(
                [...hits.entries()].filter(([i]) => dueOf(i) >= killedAt + 10_000).map(([i, h]) => Math.min(...h.at) - dueOf(i)),
              ),
            },
      reached_early: firstLate.filter((l) => l < 0).length,
      claimed_lateness_ms: summaryOf(startLate),
      recorded_lateness_ms: summaryOf(recordLate),
      load_before: loadBefore.map((x) => x.toFixed(2)),
      load_after: loadAfter.map((x) => x.toFixed(2)),
      cpus: os.cpus().length,
    };
    console.log(JSON.stringify(result, null, 2));
    const dir = path.join(__dirname, '..', 'results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `delays-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(result, null, 2));
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
