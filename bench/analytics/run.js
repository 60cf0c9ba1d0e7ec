#!/usr/bin/env node
'use strict';
/**
 * Analytics read benchmark (issue 34 aim: "Any analytics answer for an organization with 10M messages and 100k
 * tickets over 90 days: p99 < 100 ms at 10 connections").
 *  - A throw-away migrated database (dropped at the end) holds two organizations seeded directly in SQL
 *    (bench/analytics/seed.js): the aim's, BENCH_ANALYTICS_MESSAGES (10,000,000) messages and BENCH_ANALYTICS_TICKETS
 *    (100,000) tickets over 90 days, and a baseline of a tenth of both (same phones, chats and members).
 *  - Each route's use case (libs/analytics-feature, built) runs in this process on a Prisma pool of 10, driven by
 *    10 concurrent loops for BENCH_ANALYTICS_SECONDS (20) per route and organization, each call a query of the mix:
 *    messages: last 7 / 30 / 90 days, per day or (≤ 31 days) per hour, all phones or one, UTC or Europe/Berlin;
 *    messages-member: the same as a console member who reaches a third of the chats (the reach is a function here,
 *    the chats service's RPC is not measured); tickets: 7 / 30 / 90 days, all phones or one; team: the same;
 *    now: every list, all phones or one.
 *  - Then one call of each repository query for 90 days, all phones (where the time goes), and a prototype of
 *    pre-aggregated reads (bench/analytics/prototype.js; BENCH_ANALYTICS_PROTOTYPE=0 skips it).
 * Prints p50 / p99 / max and calls per route and organization, and the ratio aim / baseline. Loaded machines: say so.
 * Build first: bash scripts/build.sh. Usage: node bench/analytics/run.js (BENCH_ANALYTICS_ROUTES=messages,team to narrow).
 */
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { execSync } = require('node:child_process');
process.chdir(path.join(__dirname, '..', '..'));
const { createPrismaClient } = require('@mapi/db');
const { guardBench } = require('../lib/cleanup');
const { openBenchDatabase } = require('../lib/database');
const { seedOrganization } = require('./seed');
const { buildPrototype, runPrototype } = require('./prototype');

const dist = (p) => require(path.join(process.cwd(), 'libs/analytics-feature/dist', p));
const { MetricsRepository } = dist('repositories/metrics-repository');
const { TicketMetricsRepository, TeamMetricsRepository } = dist('repositories/ticket-metrics-repository');
const { MessageMetrics } = dist('usecases/message-metrics/message-metrics.usecase');
const { TicketMetrics } = dist('usecases/ticket-metrics/ticket-metrics.usecase');
const { TeamMetrics } = dist('usecases/team-metrics/team-metrics.usecase');
const { RightNow } = dist('usecases/right-now/right-now.usecase');
const { regroupedSql } = dist('ingest/response-buckets');
const { histogramFigures } = dist('repositories/response-histograms');

const MESSAGES = Number(process.env.BENCH_ANALYTICS_MESSAGES || 10_000_000);
const TICKETS = Number(process.env.BENCH_ANALYTICS_TICKETS || 100_000);
const SECONDS = Number(process.env.BENCH_ANALYTICS_SECONDS || 20);
const CONNECTIONS = 10;
const SHAPE = { days: 90, phones: 4, chats: 8000, members: 25 };
const ROUTES = (process.env.BENCH_ANALYTICS_ROUTES || 'messages,messages-member,tickets,team,now').split(',');

let stopping = false;
const { cleanups, run } = guardBench(3 * 3600_000, { onAbort: () => (stopping = true) });

const pick = (a) => a[Math.floor(Math.random() * a.length)];
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

function contexts(orgId) {
  const base = { org_id: orgId, token_id: randomUUID(), phone_scope: null, phone: null };
  const member = { ...base, member: { member_id: base.token_id, session_id: randomUUID(), email: 'member1@bench.test', role: 'member' } };
  return { base, member };
}

/** One query of a route's mix. */
function queries(end) {
  const iso = (d) => new Date(end.getTime() - d * 86_400_000).toISOString();
  const to = end.toISOString();
  const phone = () => (Math.random() < 0.5 ? undefined : `phone-${Math.floor(Math.random() * SHAPE.phones)}`);
  const period = () => pick([7, 30, 90]);
  return {
    messages: () => {
      const days = period();
      const interval = days <= 31 ? pick(['day', 'hour']) : 'day';
      return { from: iso(days), to, tz: pick(['UTC', 'Europe/Berlin']), interval, phone_id: phone() };
    },
    tickets: () => ({ from: iso(period()), to, tz: 'UTC', phone_id: phone() }),
    now: () => ({ phone_id: phone(), limit: 50 }),
  };
}

async function drive(name, call) {
  const times = [];
  let errors = 0;
  let firstError;
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (!stopping && Date.now() < until) {
        const t = process.hrtime.bigint();
        try {
          await call();
          times.push(Number(process.hrtime.bigint() - t) / 1e6);
        } catch (e) {
          errors++;
          firstError ??= e;
        }
      }
    }),
  );
  if (firstError) console.error(`  ${name}: ${errors} errors, first: ${firstError.message}`);
  times.sort((a, b) => a - b);
  return { calls: times.length, errors, p50: pct(times, 50), p99: pct(times, 99), max: times[times.length - 1] };
}

async function main() {
  console.log(`uptime: ${execSync('uptime').toString().trim()}`);
  const { db, pg } = await openBenchDatabase('bench_analytics', cleanups);
  await pg.query(`SET maintenance_work_mem = '256MB'`);
  await pg.query(`SET work_mem = '128MB'`);
  const end = new Date(Math.floor(Date.now() / 900_000) * 900_000);
  const orgs = [
    { label: 'aim', orgId: randomUUID(), messages: MESSAGES, tickets: TICKETS },
    { label: 'baseline', orgId: randomUUID(), messages: MESSAGES / 10, tickets: TICKETS / 10 },
  ];
  for (const o of orgs) {
    console.log(`seeding ${o.label}: ${o.messages} messages, ${o.tickets} tickets, ${JSON.stringify(SHAPE)}`);
    await seedOrganization(pg, { ...o, ...SHAPE, end, regroupedSql });
  }
  await pg.query('VACUUM ANALYZE');
  const sizes = await pg.query(
    `SELECT relname, reltuples::bigint AS rows, pg_size_pretty(pg_total_relation_size(oid)) AS size FROM pg_class
     WHERE relkind = 'r' AND relname LIKE 'analytics_%' AND reltuples > 0 ORDER BY relname`,
  );
  for (const r of sizes.rows) console.log(`  ${r.relname}: ${r.rows} rows, ${r.size}`);

  const prisma = createPrismaClient({ url: db.url, poolSize: CONNECTIONS });
  cleanups.push(() => prisma.$disconnect());
  const metrics = new MetricsRepository(prisma);
  const tickets = new TicketMetricsRepository(prisma);
  const team = new TeamMetricsRepository(prisma);
  // a member reaches a third of the chats (every chat cN with N % 3 = 0)
  const reach = async (_ctx, copies) => copies.filter((c) => Number(c.chat_id.slice(1).split('@')[0]) % 3 === 0);
  const noLabels = async () => {
    throw new Error('the bench asks no label');
  };
  const uc = {
    messages: new MessageMetrics(metrics, reach, noLabels),
    tickets: new TicketMetrics(tickets, reach),
    team: new TeamMetrics(team, metrics, tickets, reach, async () => new Map()),
    now: new RightNow(metrics, tickets, reach, async () => 0),
  };
  const q = queries(end);
  const results = {};
  for (const o of orgs) {
    const { base, member } = contexts(o.orgId);
    const calls = {
      messages: () => uc.messages.execute({ ctx: base, query: q.messages() }),
      'messages-member': () => uc.messages.execute({ ctx: member, query: q.messages() }),
      tickets: () => uc.tickets.execute({ ctx: base, query: q.tickets() }),
      team: () => uc.team.execute({ ctx: base, query: q.tickets() }),
      now: () => uc.now.execute({ ctx: base, query: q.now() }),
    };
    for (const route of ROUTES) {
      if (stopping) return;
      const r = await drive(`${o.label} ${route}`, calls[route]);
      (results[route] ??= {})[o.label] = r;
      const f = (n) => (n === undefined ? '-' : `${n.toFixed(0)} ms`);
      console.log(`${o.label.padEnd(8)} ${route.padEnd(16)} p50 ${f(r.p50)}  p99 ${f(r.p99)}  max ${f(r.max)}  ${r.calls} calls`);
    }
  }
  console.log('\nroute             aim p50 / p99         baseline p50 / p99    p99 ratio');
  for (const [route, r] of Object.entries(results)) {
    const a = r.aim;
    const b = r.baseline;
    console.log(
      `${route.padEnd(17)} ${`${a.p50.toFixed(0)} / ${a.p99.toFixed(0)} ms`.padEnd(21)} ${`${b.p50.toFixed(0)} / ${b.p99.toFixed(0)} ms`.padEnd(21)} ${(a.p99 / b.p99).toFixed(1)}×`,
    );
  }

  // where the time goes: each repository query once, 90 days, all phones, aim organization
  const aim = orgs[0];
  const scope = { orgId: aim.orgId, phones: null };
  const from = new Date(end.getTime() - 90 * 86_400_000);
  const chats = (await metrics.activeChats(scope, from, end, 20_001)).filter((c) => Number(c.chat_id.slice(1).split('@')[0]) % 3 === 0);
  // `n` buckets of `step` ms ending at `end`, on boundaries shifted by `shift` ms, the first from `from`
  const days = (shift, step, n) => {
    const last = Math.floor((end.getTime() - shift) / step) * step + shift;
    const first = last - (n - 1) * step;
    return Array.from({ length: n }, (_, b) => ({
      b,
      s: Math.max(first + b * step, end.getTime() - n * step),
      e: Math.min(first + (b + 1) * step, end.getTime()),
    }));
  };
  const once = {
    'series (90 d, day)': () => metrics.series(scope, from, end, 'UTC', 'day'),
    'series (90 d, day, Berlin)': () => metrics.series(scope, from, end, 'Europe/Berlin', 'day'),
    'series (30 d, hour)': () => metrics.series(scope, new Date(end.getTime() - 30 * 86_400_000), end, 'UTC', 'hour'),
    'totals (90 d)': () => metrics.totals(scope, from, end),
    'series, member (90 d, day)': () => metrics.series({ ...scope, chats }, from, end, 'UTC', 'day'),
    'totals, member (90 d)': () => metrics.totals({ ...scope, chats }, from, end),
    'activeChats (90 d)': () => metrics.activeChats(scope, from, end, 20_001),
    'ticket figures (90 d)': () => tickets.figures(scope, from, end),
    // the response-time histograms alone (decision 0096): totals, 90 UTC / UTC+1 days, 720 hours
    'histograms: totals (90 d)': () => histogramFigures(prisma, aim.orgId, null, [{ b: 0, s: from.getTime(), e: end.getTime() }]),
    'histograms: 90 UTC days': () => histogramFigures(prisma, aim.orgId, null, days(0, 86_400_000, 90)),
    'histograms: 90 UTC+1 days': () => histogramFigures(prisma, aim.orgId, null, days(-3_600_000, 86_400_000, 90)),
    'histograms: 720 hours': () => histogramFigures(prisma, aim.orgId, null, days(0, 3_600_000, 720)),
    'team members (90 d)': () => team.members(scope, from, end),
  };
  console.log(`\none call each, aim organization, 90 days, all phones (member: ${chats.length} chats in reach):`);
  for (const [name, fn] of Object.entries(once)) {
    const t = Date.now();
    await fn();
    console.log(`  ${name.padEnd(28)} ${Date.now() - t} ms`);
  }
  if (process.env.BENCH_ANALYTICS_PROTOTYPE !== '0') {
    await buildPrototype(pg);
    // whole UTC days, so that day rows, hour rows and the exact samples cover the same period
    const day = (d) => new Date(Math.floor(d.getTime() / 86_400_000) * 86_400_000);
    await runPrototype(pg, aim.orgId, day(from), day(end));
  }
  console.log(`uptime: ${execSync('uptime').toString().trim()}`);
}

run(main);
