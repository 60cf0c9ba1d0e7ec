import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BusinessHoursBody, MessageMetricsResult, RequestContext, TeamMetricsResult } from '@mapi/contracts';
import { MessageMetricsRpc, TeamMetricsRpc } from '@mapi/contracts';
import { resolveMigrationsDir } from '@mapi/db';
import { createOrg, messageRow, newUuid, randomSuffix, useTestDatabase } from '@mapi/testing';
import { BusinessHoursRepository } from './business-hours/business-hours-repository';
import { applyFacts } from './ingest/apply-facts';
import { regroupResponseBuckets, regroupedSql } from './ingest/response-buckets';
import type { MessageFact } from './ingest/message-facts';
import { rebuildPeriod } from './rebuild/rebuild-period';
import { MetricsRepository } from './repositories/metrics-repository';
import { TeamMetricsRepository, TicketMetricsRepository } from './repositories/ticket-metrics-repository';
import type { ChatReach } from './scope';
import { MessageMetrics } from './usecases/message-metrics/message-metrics.usecase';
import { TeamMetrics } from './usecases/team-metrics/team-metrics.usecase';
import { noLabelAsked, noTokenNames } from './testing/chats-stubs';
import { near } from './testing/near';

/**
 * First and next response times against Postgres: a first response answers a chat copy never answered before, a next
 * response one that was; both counted in the organization's business hours when it has a schedule (each sample with
 * the schedule in force when it was written), wall-clock otherwise; per period, phone, member (team) and day; the same
 * in any order of delivery; a rebuild gives the live figures back with today's schedule; the migration's backfill of
 * `is_next` agrees with the ingestion. An organization's (or phone's) medians and p90s come from the histograms
 * (docs/decisions/0096): the sample of the rank at nearest rank, within ALPHA; the histograms always equal the samples
 * regrouped. A member's figures and the team's stay exact (percentile_cont).
 */
describe('analytics response times (integration)', () => {
  const t = useTestDatabase('analytics_resp_int', { poolSize: 4 });
  const MIN = 60_000;
  const P1 = { phone_id: `phone-${randomSuffix(4)}`, org_phone: '14155550100@c.us' };
  const P2 = { phone_id: `phone-${randomSuffix(4)}`, org_phone: '14155550101@c.us' };
  const [A, B, C] = ['15550001@c.us', '15550002@c.us', '15550003@c.us'];
  const weekdays = (h: { start: string; end: string }[]) => ({ monday: h, tuesday: h, wednesday: h, thursday: h, friday: h });
  /** Paris office hours (UTC+1 in November), 11 November a holiday. */
  const OFFICE: BusinessHoursBody = {
    time_zone: 'Europe/Paris',
    weekly: weekdays([{ start: '09:00', end: '17:00' }]),
    holidays: ['2026-11-11'],
  };
  const ALWAYS = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
  );

  /**
   * A (P1): in at Mon 08:30 Paris, answered by a@ at 09:10 (first: 40 min wall, 10 business); in again at 16:50 and 16:55,
   * answered by b@ Tue 09:05 (next: 975 min wall, 15 business). B (P1): in on the holiday Wed 10:00, answered by a@ Thu
   * 09:30 (first: 1,410 wall, 30 business); in at 10:00, answered by a@ at 10:45 (next: 45 both). C (P2): in Sat 11:00,
   * answered by b@ at 13:00 (first: 120 wall, 0 business).
   */
  const script = (org: string): MessageFact[] => {
    const run = randomSuffix(6);
    const m = (phone: typeof P1, chat_id: string, id: string, iso: string, from_me: boolean, performed_by: string | null = null) => ({
      org_id: org,
      phone_id: phone.phone_id,
      chat_id,
      message_id: `${from_me}_${chat_id}_${id}_${run}`,
      at: Date.parse(iso),
      from_me,
      flagged: false,
      version: Date.parse('2026-11-01T00:00:00Z'),
      performed_by,
    });
    return [
      m(P1, A, 'A1', '2026-11-02T07:30:00Z', false),
      m(P1, A, 'A2', '2026-11-02T08:10:00Z', true, 'a@x.io'),
      m(P1, A, 'A3', '2026-11-02T15:50:00Z', false),
      m(P1, A, 'A4', '2026-11-02T15:55:00Z', false),
      m(P1, A, 'A5', '2026-11-03T08:05:00Z', true, 'b@x.io'),
      m(P2, C, 'C1', '2026-11-07T10:00:00Z', false),
      m(P2, C, 'C2', '2026-11-07T12:00:00Z', true, 'b@x.io'),
      m(P1, B, 'B1', '2026-11-11T09:00:00Z', false),
      m(P1, B, 'B2', '2026-11-12T08:30:00Z', true, 'a@x.io'),
      m(P1, B, 'B3', '2026-11-12T09:00:00Z', false),
      m(P1, B, 'B4', '2026-11-12T09:45:00Z', true, 'a@x.io'),
    ];
  };
  const PERIOD = { from: '2026-11-01T00:00:00Z', to: '2026-11-15T00:00:00Z' };

  const ctxOf = (org: string, over: Partial<RequestContext> = {}): RequestContext => ({
    org_id: org,
    token_id: newUuid(),
    phone_scope: null,
    phone: null,
    ...over,
  });
  const everyone: ChatReach = async (_ctx, copies) => copies;
  const metrics = (org: string, query: Record<string, string> = {}, ctx = ctxOf(org), reach = everyone): Promise<MessageMetricsResult> =>
    new MessageMetrics(new MetricsRepository(t.prisma), reach, noLabelAsked).execute(
      MessageMetricsRpc.request.parse({ ctx, query: { ...PERIOD, ...query } }),
    );
  const team = (org: string, ctx = ctxOf(org), reach = everyone): Promise<TeamMetricsResult> =>
    new TeamMetrics(
      new TeamMetricsRepository(t.prisma),
      new MetricsRepository(t.prisma),
      new TicketMetricsRepository(t.prisma),
      reach,
      noTokenNames,
    ).execute(TeamMetricsRpc.request.parse({ ctx, query: PERIOD }));
  const apply = (facts: MessageFact[]) => t.prisma.$transaction((tx) => applyFacts(tx, facts));
  const schedule = (org: string, body: BusinessHoursBody | null) =>
    body ? new BusinessHoursRepository(t.prisma).put(org, body) : new BusinessHoursRepository(t.prisma).delete(org);
  const figures = (m: MessageMetricsResult) => [m.business_hours, m.totals.first_response_ms, m.totals.next_response_ms];
  /** Median and p90 at nearest rank (the samples of ranks ⌈n/2⌉ and ⌈0.9n⌉, in minutes), within ALPHA. */
  const of = (median: number, p90: number, count: number) => ({ median: near(median * MIN), p90: near(p90 * MIN), count });
  /** Median and p90 (continuous, percentile_cont) of minutes, as the exact figures of a set of chats give them. */
  const exact = (median: number, p90: number, count: number) => ({ median: median * MIN, p90: p90 * MIN, count });

  const BUSINESS = [true, of(10, 30, 3), of(15, 45, 2)]; // first 0, 10, 30; next 15, 45
  const WALL = [false, of(120, 1410, 3), of(45, 975, 2)]; // first 40, 120, 1,410; next 45, 975
  /** The organization's histogram rows and its samples regrouped: always equal (zero rows left out). */
  const histograms = async (org: string) => {
    const rows = (sql: string) =>
      t.prisma.$queryRawUnsafe<object[]>(
        `SELECT unit, business, start, phone_id, is_next, bucket::int AS bucket, n FROM (${sql}) x WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5, 6`,
        org,
      );
    return { live: await rows(`SELECT * FROM analytics_response_buckets WHERE org_id = $1::uuid`), regrouped: await rows(regroupedSql) };
  };
  const expectHistogramsOfSamples = async (org: string) => {
    const { live, regrouped } = await histograms(org);
    expect(live.length).toBeGreaterThan(0);
    expect(live).toEqual(regrouped);
  };

  it('counts first and next responses in business hours with a schedule, wall-clock without; per phone, day and member', async () => {
    const [withHours, without] = [(await createOrg(t.prisma)).id, (await createOrg(t.prisma)).id];
    await schedule(withHours, OFFICE);
    await apply(script(withHours));
    await apply(script(without));
    expect(figures(await metrics(withHours))).toEqual(BUSINESS);
    expect(figures(await metrics(without))).toEqual(WALL);
    // per phone
    expect(figures(await metrics(withHours, { phone_id: P2.phone_id }))).toEqual([
      true,
      of(0, 0, 1),
      { median: null, p90: null, count: 0 },
    ]);
    expect(figures(await metrics(without, { phone_id: P1.phone_id }))).toEqual([false, of(40, 1410, 2), of(45, 975, 2)]);
    // per local day of Paris: each response in the day of the message it answers
    const days = (await metrics(withHours, { tz: 'Europe/Paris' })).series.filter((d) => d.first_responses + d.next_responses > 0);
    expect(days.map((d) => [d.bucket, d.first_responses, d.first_response_median_ms, d.next_responses, d.next_response_median_ms])).toEqual(
      [
        ['2026-11-02T00:00:00+01:00', 1, near(10 * MIN), 1, near(15 * MIN)],
        ['2026-11-07T00:00:00+01:00', 1, 0, 0, null],
        ['2026-11-11T00:00:00+01:00', 1, near(30 * MIN), 0, null],
        ['2026-11-12T00:00:00+01:00', 0, null, 1, near(45 * MIN)],
      ],
    );
    // per member (the response's sender)
    const members = (await team(withHours)).members.map(({ member, first_response_ms, next_response_ms }) => ({
      member,
      first_response_ms,
      next_response_ms,
    }));
    expect(members).toEqual([
      { member: 'a@x.io', first_response_ms: { median: 20 * MIN, count: 2 }, next_response_ms: { median: 45 * MIN, count: 1 } },
      { member: 'b@x.io', first_response_ms: { median: 0, count: 1 }, next_response_ms: { median: 15 * MIN, count: 1 } },
    ]);
    expect((await team(withHours)).business_hours).toBe(true);
    expect((await team(without)).members.find((m) => m.member === 'b@x.io')?.next_response_ms).toEqual({ median: 975 * MIN, count: 1 });
    // a member reaching chat A only
    const member = ctxOf(withHours, { member: { member_id: newUuid(), session_id: newUuid(), email: 'm@example.com', role: 'member' } });
    const onlyA: ChatReach = async (_ctx, copies) => copies.filter((c) => c.chat_id === A);
    expect(figures(await metrics(withHours, {}, member, onlyA))).toEqual([true, exact(10, 10, 1), exact(15, 15, 1)]);
    // a member reaching A and B: exact, continuous percentiles (first 10, 30; next 15, 45)
    const notC: ChatReach = async (_ctx, copies) => copies.filter((c) => c.chat_id !== C);
    expect(figures(await metrics(withHours, {}, member, notC))).toEqual([true, exact(20, 28, 2), exact(30, 42, 2)]);
  });

  it('gives the same figures in any order of delivery, each message in its own transaction, repeats included', async () => {
    const base = script('00000000-0000-4000-8000-000000000000');
    const orders = [[...base].reverse(), ...[0, 1, 2].map(() => [...base, ...base.slice(0, 5)].sort(() => Math.random() - 0.5))];
    for (const order of orders) {
      const org = (await createOrg(t.prisma)).id;
      await schedule(org, OFFICE);
      for (const f of order) await apply([{ ...f, org_id: org }]);
      expect(figures(await metrics(org))).toEqual(BUSINESS);
      expect((await metrics(org, { tz: 'Europe/Paris' })).series.map((d) => d.next_responses).reduce((a, b) => a + b)).toBe(2);
      // late messages replaced samples (−1) and wrote others (+1): the histograms are still the samples regrouped
      await expectHistogramsOfSamples(org);
    }
  });

  it('a sample keeps the schedule in force when it was written; without a schedule now, wall-clock; a rebuild applies today’s', async () => {
    const org = (await createOrg(t.prisma)).id;
    const facts = script(org);
    const [a, rest] = [facts.filter((f) => f.chat_id === A), facts.filter((f) => f.chat_id === B)];
    await schedule(org, OFFICE);
    await apply(a); // A: 10 and 15 business minutes
    await schedule(org, { time_zone: 'UTC', weekly: ALWAYS, holidays: [] });
    await apply(rest); // B under round-the-clock hours: 1,410 and 45
    expect(figures(await metrics(org))).toEqual([true, of(10, 1410, 2), of(15, 45, 2)]);
    await schedule(org, null); // no schedule now: every sample wall-clock
    expect(figures(await metrics(org))).toEqual([false, of(40, 1410, 2), of(45, 975, 2)]);
    await schedule(org, OFFICE); // set again: the samples as they were written
    expect(figures(await metrics(org))).toEqual([true, of(10, 1410, 2), of(15, 45, 2)]);
    await t.prisma.message.createMany({ data: storedMessages(org, [...a, ...rest]) });
    await rebuildPeriod(t.prisma, org, PERIOD.from, PERIOD.to); // every sample in today's schedule
    expect(figures(await metrics(org))).toEqual([true, of(10, 30, 2), of(15, 45, 2)]);
    await expectHistogramsOfSamples(org);
  });

  /** The messages as the chats service stores them, senders included. */
  const storedMessages = (org: string, facts: MessageFact[]) =>
    facts.map((f) =>
      messageRow({ id: org }, f.phone_id === P1.phone_id ? P1 : P2, {
        chatId: f.chat_id,
        fromMe: f.from_me,
        timestamp: new Date(f.at),
        overrides: { message_id: f.message_id, performed_by: f.performed_by ?? null },
      }),
    );

  it('a rebuild gives the live figures (totals, days, phones, members, team) with a schedule, also after damage', async () => {
    const org = (await createOrg(t.prisma)).id;
    await schedule(org, OFFICE);
    const facts = script(org);
    await apply(facts);
    await t.prisma.message.createMany({ data: storedMessages(org, facts) });
    const member = ctxOf(org, { member: { member_id: newUuid(), session_id: newUuid(), email: 'm@example.com', role: 'member' } });
    const notC: ChatReach = async (_ctx, copies) => copies.filter((c) => c.chat_id !== C);
    const read = async () => ({
      all: await metrics(org),
      paris: await metrics(org, { tz: 'Europe/Paris' }),
      hourly: await metrics(org, { interval: 'hour', from: '2026-11-02T00:00:00Z', to: '2026-11-04T00:00:00Z' }),
      p2: await metrics(org, { phone_id: P2.phone_id }),
      member: await metrics(org, {}, member, notC),
      team: await team(org),
    });
    const live = await read();
    expect(figures(live.all)).toEqual(BUSINESS);
    // a period cutting A between its first response and the next message, and B between B3 and its answer
    await rebuildPeriod(t.prisma, org, '2026-11-02T12:00:00Z', '2026-11-12T09:30:00Z');
    expect(await read()).toEqual(live);
    await t.prisma.$executeRaw`UPDATE analytics_responses SET business_ms = NULL, is_next = NOT is_next WHERE org_id = ${org}::uuid`;
    await t.prisma.$executeRaw`DELETE FROM analytics_responses WHERE org_id = ${org}::uuid AND chat_id = ${B}`;
    await t.prisma.$executeRaw`UPDATE analytics_response_buckets SET n = n + 5 WHERE org_id = ${org}::uuid`;
    expect(await read()).not.toEqual(live);
    await rebuildPeriod(t.prisma, org, PERIOD.from, PERIOD.to);
    expect(await read()).toEqual(live);
    await expectHistogramsOfSamples(org);
  });

  it("the migration's backfill of is_next marks the samples the ingestion marks", async () => {
    const org = (await createOrg(t.prisma)).id;
    await apply(script(org));
    const live = await metrics(org);
    const sql = readFileSync(join(resolveMigrationsDir(), '20261129193000_analytics_response_times', 'migration.sql'), 'utf8');
    const backfill = sql.slice(sql.indexOf('UPDATE "analytics_responses"'));
    // the samples changed behind the histograms' back: written again from them, as a rebuild does
    const regroup = () => t.prisma.$transaction((tx) => regroupResponseBuckets(tx, org));
    await t.prisma.$executeRaw`UPDATE analytics_responses SET is_next = false WHERE org_id = ${org}::uuid`;
    await regroup();
    expect(figures(await metrics(org))).not.toEqual(WALL);
    await t.prisma.$executeRawUnsafe(backfill);
    await regroup();
    expect(await metrics(org)).toEqual(live);
    expect(figures(live)).toEqual(WALL);
  });

  it("the team and histogram migration's backfill writes what the ingestion writes: responders, member counters, histograms", async () => {
    const org = (await createOrg(t.prisma)).id;
    await schedule(org, OFFICE);
    await apply(script(org));
    const state = async () => ({
      responders: await t.prisma
        .$queryRaw`SELECT incoming_message_id, responder FROM analytics_responses WHERE org_id = ${org}::uuid ORDER BY 1`,
      members: await t.prisma
        .$queryRaw`SELECT slot, phone_id, chat_id, member, sent FROM analytics_member_slots WHERE org_id = ${org}::uuid ORDER BY 1, 2, 3, 4`,
      histograms: (await histograms(org)).live,
    });
    const live = await state();
    expect(live.members).toHaveLength(5);
    const sql = readFileSync(join(resolveMigrationsDir(), '20261129213000_analytics_team_members', 'migration.sql'), 'utf8');
    // its UPDATE and INSERT statements, on tables emptied (every organization's rows: the backfill writes all of them)
    const backfills = sql
      .split(';')
      .map((x) => x.replace(/^\s*(--.*\n\s*)*/, ''))
      .filter((x) => /^(UPDATE|INSERT)/.test(x));
    expect(backfills).toHaveLength(3);
    await t.prisma.$executeRaw`UPDATE analytics_responses SET responder = NULL`;
    await t.prisma.$executeRaw`DELETE FROM analytics_member_slots`;
    await t.prisma.$executeRaw`DELETE FROM analytics_response_buckets`;
    expect(await state()).not.toEqual(live);
    for (const statement of backfills) await t.prisma.$executeRawUnsafe(statement);
    expect(await state()).toEqual(live);
  });
});
