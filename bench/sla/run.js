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
 * The harness is bench/lib/durable-timers.js. Build first: bash scripts/build.sh. Results: stdout and
 * bench/results/sla-<time>.json (git-ignored).
 */

const { randomUUID } = require('node:crypto');
const { runDurableTimerBench, runMain } = require('../lib/durable-timers');

const N = Number(process.env.BENCH_SLA_WAITS || 10_000);
const SPREAD_MS = Number(process.env.BENCH_SLA_SPREAD_MS ?? 60_000);

runMain(() =>
  runDurableTimerBench({
    name: 'sla',
    app: 'analytics',
    eventType: 'sla.breached',
    env: process.env.SLA_FIRE_DELAY_MS ? { SLA_FIRE_DELAY_MS: process.env.SLA_FIRE_DELAY_MS } : {},
    n: N,
    spreadMs: SPREAD_MS,
    leadMs: Number(process.env.BENCH_SLA_LEAD_MS || 3_000),
    replicas: Number(process.env.BENCH_ANALYTICS_REPLICAS || 2),
    extra: { fire_delay_ms: Number(process.env.SLA_FIRE_DELAY_MS ?? 1_000) },
    // one policy; chat c<i> due at from + i·spread/N, armed a minute before (as a message's wait is,
    // SLA_ARM_GRACE_MS long past); one statement, so a slow insert does not eat into the lead time
    arm: async (prisma, orgId, from) => {
      const policyId = randomUUID();
      const now = new Date();
      await prisma.analyticsSlaPolicy.create({
        data: { policy_id: policyId, org_id: orgId, name: 'bench', kind: 'first_response', minutes: 1, created_at: now, updated_at: now },
      });
      await prisma.$executeRaw`
        INSERT INTO analytics_sla_timers (org_id, policy_id, phone_id, chat_id, message_id, created_at, started_at, due_at)
        SELECT ${orgId}::uuid, ${policyId}::uuid, 'bench-phone', 'c' || i || '@c.us', 'm' || i, now() - interval '1 minute', now(),
               to_timestamp((${from}::float8 + floor(i * ${SPREAD_MS}::float8 / ${N})) / 1000)
        FROM generate_series(0, ${N - 1}) AS i`;
      await prisma.$executeRaw`SELECT pg_notify('mapi_sla_timers', ${String(from)})`;
    },
    firedRows: (prisma) =>
      prisma.$queryRaw`SELECT (payload->>'chat_id') AS key, substr(split_part(payload->>'chat_id', '@', 1), 2)::int AS i, (EXTRACT(EPOCH FROM created_at) * 1000)::float8 AS at FROM outbox_events WHERE type = 'sla.breached'`,
    eventKey: (e) => e.data.chat_id,
  }),
);
