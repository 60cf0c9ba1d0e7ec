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
 * The harness is bench/lib/durable-timers.js. Build first: bash scripts/build.sh. Results: stdout and
 * bench/results/tasks-<time>.json (git-ignored).
 */

const { randomUUID } = require('node:crypto');
const { runDurableTimerBench, runMain } = require('../lib/durable-timers');

const N = Number(process.env.BENCH_REMINDERS || 10_000);
const SPREAD_MS = Number(process.env.BENCH_REMINDER_SPREAD_MS ?? 20_000);

runMain(() =>
  runDurableTimerBench({
    name: 'tasks',
    app: 'inbox',
    eventType: 'task.reminder',
    n: N,
    spreadMs: SPREAD_MS,
    leadMs: Number(process.env.BENCH_REMINDER_LEAD_MS || 3_000),
    replicas: Number(process.env.BENCH_INBOX_REPLICAS || 2),
    // todo tasks titled r<i>, then armed in one statement (so a slow insert does not eat into the lead time)
    arm: async (prisma, orgId, from) => {
      const ids = Array.from({ length: N }, () => randomUUID());
      for (let i = 0; i < N; i += 2_000) {
        await prisma.inboxTask.createMany({
          data: ids.slice(i, i + 2_000).map((task_id, j) => ({
            task_id,
            org_id: orgId,
            type: 'todo',
            title: `r${i + j}`,
            created_by: 'bench',
            last_updated_by: 'bench',
          })),
        });
      }
      await prisma.$executeRaw`UPDATE inbox_tasks SET remind_at = to_timestamp((${from}::float8 + floor(substr(title, 2)::int * ${SPREAD_MS}::float8 / ${N})) / 1000)`;
      await prisma.$executeRaw`SELECT pg_notify('mapi_task_reminders', ${String(from)})`;
    },
    firedRows: (prisma) =>
      prisma.$queryRaw`SELECT (payload->>'task_id') AS key, substr(payload->>'title', 2)::int AS i, (EXTRACT(EPOCH FROM created_at) * 1000)::float8 AS at FROM outbox_events WHERE type = 'task.reminder'`,
    eventKey: (e) => e.data.task_id,
  }),
);
