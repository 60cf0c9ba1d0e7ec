import type { MessageMetricsResult, RequestContext, RightNowResult } from '@mapi/contracts';
import { MessageMetricsRpc, RightNowRpc } from '@mapi/contracts';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { eventSubject, publishDurable, type DomainEvent } from '@mapi/events';
import { createOrg, messageRow, newUuid, randomSuffix, testEnv, useTestDatabase, waitUntil } from '@mapi/testing';
import { applyFacts } from './ingest/apply-facts';
import { factOf, type MessageFact } from './ingest/message-facts';
import { runRebuildCli } from './rebuild/rebuild-cli';
import { useLiveIntake } from './testing/live-intake';
import { rebuildPeriod } from './rebuild/rebuild-period';
import { MetricsRepository } from './repositories/metrics-repository';
import { TicketMetricsRepository } from './repositories/ticket-metrics-repository';
import type { ChatReach } from './scope';
import { MessageMetrics } from './usecases/message-metrics/message-metrics.usecase';
import { RightNow } from './usecases/right-now/right-now.usecase';
import { noLabelAsked, noUnreadChats } from './testing/chats-stubs';
import { near, withoutPercentiles } from './testing/near';

/**
 * The analytics service against Postgres and JetStream: message events counted by the durable
 * consumer once however often they are published; the same figures whatever order the facts come in
 * (every order of a chat's messages and flag changes, each in its own transaction, with repeats);
 * another organization's figures never show; a rebuild from the stored messages gives the live
 * figures back, also after the aggregates were damaged; members' "now" lists are narrowed to reach.
 */
describe('analytics (integration)', () => {
  const t = useTestDatabase('analytics_int', { poolSize: 4 });
  const live = useLiveIntake(() => t.prisma, testEnv.natsUrl(), `${testEnv.namespace()}-analytics-${randomSuffix(3)}`);

  const T0 = Date.parse('2026-11-02T08:00:00Z');
  const MIN = 60_000;
  const PHONE = { phone_id: `phone-${randomSuffix(4)}`, org_phone: '14155550100@c.us' };
  const NOW = T0 + 24 * 60 * MIN;

  /** A chat script: incoming (false) and outgoing (true) messages at minutes after T0, some flagged. */
  interface Scripted {
    chat_id: string;
    message_id: string;
    at: number;
    from_me: boolean;
    flagged?: boolean;
  }
  const script = (): Scripted[] => {
    const c1 = `1555${randomSuffix(3)}@c.us`;
    const c2 = `1666${randomSuffix(3)}@c.us`;
    const c3 = `1777${randomSuffix(3)}@c.us`;
    const m = (chat_id: string, id: string, minutes: number, from_me: boolean, flagged = false) => ({
      chat_id,
      message_id: `${from_me}_${chat_id}_${id}`,
      at: T0 + minutes * MIN,
      from_me,
      flagged,
    });
    return [
      // c1: answered after 5 min (m1, m2 → m3), then after 2 min (m4 → m5), m6 answers nothing
      m(c1, 'M1', 0, false, true),
      m(c1, 'M2', 1, false),
      m(c1, 'M3', 5, true),
      m(c1, 'M4', 60, false),
      m(c1, 'M5', 62, true),
      m(c1, 'M6', 70, true),
      // c2: waiting since minute 10, one flagged
      m(c2, 'M7', 10, false, true),
      // c3: the next day in Asia/Kolkata (19:00 UTC is 00:30 IST), answered after 30 min
      m(c3, 'M8', 11 * 60, false),
      m(c3, 'M9', 11 * 60 + 30, true),
    ];
  };
  const factsOf = (org: string, msgs: Scripted[], version = T0): MessageFact[] =>
    msgs.map((x) => ({
      org_id: org,
      phone_id: PHONE.phone_id,
      chat_id: x.chat_id,
      message_id: x.message_id,
      at: x.at,
      from_me: x.from_me,
      flagged: x.flagged ?? false,
      version,
    }));

  const ctxOf = (org: string, over: Partial<RequestContext> = {}): RequestContext => ({
    org_id: org,
    token_id: newUuid(),
    phone_scope: null,
    phone: null,
    ...over,
  });
  const everyone: ChatReach = async (_ctx, copies) => copies;
  const metrics = (prisma: PrismaClient, org: string, query: Record<string, string> = {}, ctx = ctxOf(org), reach = everyone) =>
    new MessageMetrics(new MetricsRepository(prisma), reach, noLabelAsked).execute(
      MessageMetricsRpc.request.parse({ ctx, query: { from: '2026-11-02T00:00:00Z', to: '2026-11-04T00:00:00Z', ...query } }),
    );
  const now = (prisma: PrismaClient, org: string, ctx = ctxOf(org), reach = everyone) =>
    new RightNow(new MetricsRepository(prisma), new TicketMetricsRepository(prisma), reach, noUnreadChats, () => NOW).execute(
      RightNowRpc.request.parse({ ctx, query: {} }),
    );
  const apply = (prisma: PrismaClient, facts: MessageFact[]) => prisma.$transaction((tx) => applyFacts(tx, facts));

  /** What the script's figures must be, over 2026-11-02/03 UTC. */
  const expectScriptFigures = (m: MessageMetricsResult, n: RightNowResult, chats: Scripted[]) => {
    expect(m.totals).toEqual({
      active_chats: 3,
      incoming: 5,
      outgoing: 4,
      flagged: 2,
      // first responses (chats never answered before) 5 and 30 minutes: at nearest rank (the histograms, within 2 %)
      // median 5, p90 30 min; next responses (c1 answered again) 2 minutes
      first_response_ms: { median: near(5 * MIN), p90: near(30 * MIN), count: 2 },
      next_response_ms: { median: near(2 * MIN), p90: near(2 * MIN), count: 1 },
    });
    expect(m.business_hours).toBe(false);
    expect(m.series.map((s) => [s.bucket, s.incoming, s.outgoing, s.active_chats])).toEqual([
      ['2026-11-02T00:00:00+00:00', 5, 4, 3],
      ['2026-11-03T00:00:00+00:00', 0, 0, 0],
    ]);
    expect(n.waiting).toEqual({
      count: 1,
      chats: [
        {
          phone_id: PHONE.phone_id,
          chat_id: chats[6].chat_id,
          message_id: chats[6].message_id,
          waiting_since: new Date(T0 + 10 * MIN).toISOString(),
          waiting_ms: NOW - T0 - 10 * MIN,
        },
      ],
    });
    expect(n.flagged?.count).toBe(2);
    expect(n.unread_chats).toBe(0); // the stand-in's count (the chats service's own: chat-counts.int-spec.ts)
  };

  it('counts the same figures in any order, each fact in its own transaction, repeats included', async () => {
    const orders: Scripted[][] = [];
    const base = script();
    orders.push(base);
    orders.push([...base].reverse());
    for (let i = 0; i < 3; i++) orders.push([...base, ...base.slice(0, 4)].sort(() => Math.random() - 0.5));
    for (const order of orders) {
      const org = (await createOrg(t.prisma)).id;
      for (const f of factsOf(org, order)) await apply(t.prisma, [f]);
      expectScriptFigures(await metrics(t.prisma, org), await now(t.prisma, org), base);
    }
  });

  it('a flag state older than the stored one changes nothing; unflagging moves the counters back', async () => {
    const org = (await createOrg(t.prisma)).id;
    const [m1] = factsOf(org, script().slice(0, 1));
    await apply(t.prisma, [{ ...m1, flagged: false, version: T0 }]);
    await apply(t.prisma, [{ ...m1, flagged: false, version: T0 + 3 }]); // unflagged, newest
    await apply(t.prisma, [{ ...m1, flagged: true, version: T0 + 2 }]); // flagged before that, arriving late
    expect((await metrics(t.prisma, org)).totals.flagged).toBe(0);
    await apply(t.prisma, [{ ...m1, flagged: true, version: T0 + 4 }]);
    expect((await metrics(t.prisma, org)).totals.flagged).toBe(1);
    const member = ctxOf(org, { member: { member_id: newUuid(), session_id: newUuid(), email: 'm@example.com', role: 'member' } });
    expect((await metrics(t.prisma, org, {}, member)).totals.flagged).toBe(1); // the per-chat counters moved too
    expect((await now(t.prisma, org)).flagged?.chats).toEqual([{ phone_id: PHONE.phone_id, chat_id: m1.chat_id, flagged_messages: 1 }]);
    await apply(t.prisma, [{ ...m1, flagged: false, version: T0 + 5 }]);
    expect((await metrics(t.prisma, org)).totals.flagged).toBe(0);
    expect((await metrics(t.prisma, org, {}, member)).totals.flagged).toBe(0);
    expect((await now(t.prisma, org)).flagged).toEqual({ count: 0, chats: [] });
  });

  it('cuts the series in local days and hours of the time zone, and narrows to a phone', async () => {
    const org = (await createOrg(t.prisma)).id;
    await apply(t.prisma, factsOf(org, script()));
    const kolkata = await metrics(t.prisma, org, {
      tz: 'Asia/Kolkata',
      from: '2026-11-02T00:00:00+05:30',
      to: '2026-11-04T00:00:00+05:30',
    });
    expect(kolkata.series.map((s) => [s.bucket, s.incoming, s.outgoing, s.first_responses, s.next_responses])).toEqual([
      ['2026-11-02T00:00:00+05:30', 4, 3, 1, 1],
      ['2026-11-03T00:00:00+05:30', 1, 1, 1, 0],
    ]);
    const hourly = await metrics(t.prisma, org, { interval: 'hour', from: '2026-11-02T08:00:00Z', to: '2026-11-02T10:00:00Z' });
    expect(hourly.series.map((s) => [s.bucket, s.incoming, s.outgoing])).toEqual([
      ['2026-11-02T08:00:00+00:00', 3, 1],
      ['2026-11-02T09:00:00+00:00', 1, 2],
    ]);
    expect((await metrics(t.prisma, org, { phone_id: 'phone-of-nobody' })).totals.incoming).toBe(0);
    expect((await metrics(t.prisma, org, { phone_id: PHONE.phone_id })).totals.incoming).toBe(5);
    // a phone outside the token's phones is 404, as another organization's
    await expect(metrics(t.prisma, org, { phone_id: PHONE.phone_id }, ctxOf(org, { phone_scope: ['phone-other'] }))).rejects.toMatchObject({
      status: 404,
    });
    expect((await metrics(t.prisma, org, {}, ctxOf(org, { phone_scope: ['phone-other'] }))).totals.incoming).toBe(0);
  });

  it("never shows another organization's figures", async () => {
    const a = (await createOrg(t.prisma)).id;
    const b = (await createOrg(t.prisma)).id;
    await apply(t.prisma, factsOf(b, script()));
    await apply(t.prisma, factsOf(a, script().slice(0, 1))); // one message of A on the same phone id
    const m = await metrics(t.prisma, a);
    expect(m.totals).toMatchObject({
      active_chats: 1,
      incoming: 1,
      outgoing: 0,
      flagged: 1,
      first_response_ms: { count: 0, median: null, p90: null },
    });
    const n = await now(t.prisma, a);
    expect(n.waiting?.count).toBe(1);
    expect(n.flagged?.count).toBe(1);
    expect((await metrics(t.prisma, b)).totals.incoming).toBe(5);
  });

  it('members: the figures and the "now" lists of the chats within their reach', async () => {
    const org = (await createOrg(t.prisma)).id;
    const msgs = script();
    await apply(t.prisma, factsOf(org, msgs));
    const member = ctxOf(org, { member: { member_id: newUuid(), session_id: newUuid(), email: 'm@example.com', role: 'member' } });
    // reaching every chat, a member's figures (summed per chat) are the organization's (summed per phone), but for the
    // percentiles: a member's exact (percentile_cont of the samples), the organization's from the histograms
    const all = await metrics(t.prisma, org);
    const everything = await metrics(t.prisma, org, {}, member);
    expect(withoutPercentiles(everything)).toEqual(withoutPercentiles(all));
    expect(everything.totals.first_response_ms).toEqual({ median: 17.5 * MIN, p90: 27.5 * MIN, count: 2 });
    expect(all.totals.first_response_ms).toEqual({ median: near(5 * MIN), p90: near(30 * MIN), count: 2 });
    const kolkata = { tz: 'Asia/Kolkata', interval: 'hour' };
    const hourly = await metrics(t.prisma, org, kolkata);
    expect(withoutPercentiles(await metrics(t.prisma, org, kolkata, member))).toEqual(withoutPercentiles(hourly));
    // one sample an hour at most here: the hourly medians are those samples, within 2 %
    expect(hourly.series.filter((b) => b.first_responses).map((b) => [b.bucket, b.first_response_median_ms])).toEqual([
      ['2026-11-02T13:00:00+05:30', near(5 * MIN)],
      ['2026-11-03T00:00:00+05:30', near(30 * MIN)],
    ]);
    const onlyC1: ChatReach = async (_ctx, copies) => copies.filter((c) => c.chat_id === msgs[0].chat_id);
    const c1 = await metrics(t.prisma, org, {}, member, onlyC1);
    expect(c1.totals).toEqual({
      active_chats: 1,
      incoming: 3,
      outgoing: 3,
      flagged: 1,
      first_response_ms: { median: 5 * MIN, p90: 5 * MIN, count: 1 },
      next_response_ms: { median: 2 * MIN, p90: 2 * MIN, count: 1 },
    });
    expect(c1.series.map((b) => [b.incoming, b.outgoing, b.active_chats, b.first_responses, b.next_responses])).toEqual([
      [3, 3, 1, 1, 1],
      [0, 0, 0, 0, 0],
    ]);
    const none = await metrics(t.prisma, org, {}, member, async () => []);
    expect(none.totals).toMatchObject({ active_chats: 0, incoming: 0, outgoing: 0, flagged: 0, first_response_ms: { count: 0 } });
    // owners and admins: no reach call
    const refuse: ChatReach = async () => {
      throw new Error('not a member: no reach call');
    };
    const admin = ctxOf(org, { member: { member_id: newUuid(), session_id: newUuid(), email: 'a@example.com', role: 'admin' } });
    expect(await metrics(t.prisma, org, {}, admin, refuse)).toEqual(all);
    const n = await now(t.prisma, org, member, onlyC1);
    expect(n.waiting).toEqual({ count: 0, chats: [] });
    expect(n.flagged?.chats.map((c) => c.chat_id)).toEqual([msgs[0].chat_id]);
  });

  it('a rebuild from the stored messages gives the live figures, also after the aggregates were damaged', async () => {
    const org = (await createOrg(t.prisma)).id;
    const msgs = script();
    await apply(t.prisma, factsOf(org, msgs));
    // the same messages as the chats service stores them (flag_status as flagged now)
    await t.prisma.message.createMany({
      data: msgs.map((x) =>
        messageRow({ id: org }, PHONE, {
          chatId: x.chat_id,
          fromMe: x.from_me,
          timestamp: new Date(x.at),
          overrides: { message_id: x.message_id, flag_status: x.flagged ? true : null },
        }),
      ),
    });
    const member = ctxOf(org, { member: { member_id: newUuid(), session_id: newUuid(), email: 'm@example.com', role: 'member' } });
    const someChats: ChatReach = async (_ctx, copies) => copies.filter((c) => c.chat_id !== msgs[6].chat_id);
    const live = {
      member: await metrics(t.prisma, org, {}, member, someChats),
      m: await metrics(t.prisma, org),
      kolkata: await metrics(t.prisma, org, { tz: 'Asia/Kolkata' }),
      n: await now(t.prisma, org),
    };
    // a period cutting through c1's conversation (between M3 and M4), then the whole of it
    await rebuildPeriod(t.prisma, org, new Date(T0 + 30 * MIN).toISOString(), new Date(T0 + 12 * 60 * MIN).toISOString());
    expect(await metrics(t.prisma, org)).toEqual(live.m);
    expect(await now(t.prisma, org)).toEqual(live.n);
    await t.prisma.$executeRaw`DELETE FROM analytics_message_slots WHERE org_id = ${org}::uuid`;
    await t.prisma.$executeRaw`UPDATE analytics_chat_slots SET incoming = 0 WHERE org_id = ${org}::uuid`;
    await t.prisma.$executeRaw`DELETE FROM analytics_responses WHERE org_id = ${org}::uuid`;
    await t.prisma.$executeRaw`UPDATE analytics_chat_states SET flagged_count = 7, waiting_since = NULL WHERE org_id = ${org}::uuid`;
    const result = await rebuildPeriod(t.prisma, org, '2026-11-01T00:00:00Z', '2026-11-05T00:00:00Z');
    expect(result).toMatchObject({ messages: msgs.length, chats: 3 });
    expect(await metrics(t.prisma, org)).toEqual(live.m);
    expect(await metrics(t.prisma, org, { tz: 'Asia/Kolkata' })).toEqual(live.kolkata);
    expect(await metrics(t.prisma, org, {}, member, someChats)).toEqual(live.member);
    expect(live.member.totals.active_chats).toBe(2);
    expect(await now(t.prisma, org)).toEqual(live.n);
  });

  it('two intakes (two replicas) counting the same chats at once: no deadlock, each message once', async () => {
    const org = (await createOrg(t.prisma)).id;
    const other = createPrismaClient({ url: t.db.url, poolSize: 2 });
    try {
      const msgs = script();
      const facts = factsOf(org, msgs);
      const halves = [facts.filter((_, i) => i % 2 === 0), facts.filter((_, i) => i % 2 === 1)];
      await Promise.all([
        apply(t.prisma, [...halves[0], ...halves[1].slice(0, 2)]),
        apply(other, [...halves[1], ...halves[0].slice(0, 2)].reverse()),
        apply(t.prisma, facts.slice(3)),
      ]);
      expectScriptFigures(
        await metrics(t.prisma, org),
        await now(t.prisma, org),
        script().map((x, i) => ({ ...x, ...facts[i] })),
      );
    } finally {
      await other.$disconnect();
    }
  });

  it('the rebuild command: usage errors exit 2, a run prints what it counted', async () => {
    const lines: string[] = [];
    const io = {
      out: (l: string) => lines.push(l),
      err: (l: string) => lines.push(l),
      openDatabase: () => createPrismaClient({ url: t.db.url, poolSize: 1 }),
    };
    expect(await runRebuildCli(['--org', 'nope', '--from', '2026-11-01T00:00:00Z', '--to', '2026-11-02T00:00:00Z'], io)).toBe(2);
    expect(await runRebuildCli(['--org', newUuid(), '--from', '2026-11-02T00:00:00Z', '--to', '2026-11-01T00:00:00Z'], io)).toBe(2);
    expect(await runRebuildCli(['--bogus'], io)).toBe(2);
    const org = (await createOrg(t.prisma)).id;
    expect(await runRebuildCli(['--org', org, '--from', '2026-11-01T00:00:00Z', '--to', '2026-11-02T00:00:00Z'], io)).toBe(0);
    expect(JSON.parse(lines[lines.length - 1])).toEqual({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-02T00:00:00.000Z',
      messages: 0,
      chats: 0,
      tickets: 0,
    });
  });

  it('the durable consumer counts each message event once, however often and in whatever order it is published', async () => {
    const { nc, ns } = await live.start();
    const org = (await createOrg(t.prisma)).id;
    const msgs = script();
    const eventOf = (x: Scripted, type: DomainEvent['event_type'] = 'message.created', createdAt = T0): DomainEvent =>
      ({
        event_id: newUuid(),
        event_type: type,
        org_id: org,
        phone_id: PHONE.phone_id,
        created_at: new Date(createdAt).toISOString(),
        data: {
          message_id: x.message_id,
          chat_id: x.chat_id,
          timestamp: new Date(x.at).toISOString().replace('Z', '+00:00'),
          from_me: x.from_me,
          flag_status: null,
        },
      }) as unknown as DomainEvent;
    const events = [
      ...msgs.map((x) => eventOf(x)),
      ...msgs.filter((x) => x.flagged).map((x) => eventOf(x, 'message.flagged', T0 + MIN)),
      eventOf(msgs[1], 'message.updated', T0 + MIN), // not a counting event
    ].reverse();
    const js = nc.jetstream();
    // each event under two message ids (a replay the duplicate window does not catch), then again with its own id
    for (const e of events) await publishDurable(js, eventSubject(ns, e.event_type), e, `${e.event_id}-a`);
    for (const e of events) await publishDurable(js, eventSubject(ns, e.event_type), e, `${e.event_id}-b`);
    const counted = async () => (await t.prisma.analyticsMessage.count({ where: { org_id: org } })) === msgs.length;
    await waitUntil(counted, 'the events counted');
    await waitUntil(async () => (await metrics(t.prisma, org)).totals.flagged === 2, 'the flags counted');
    for (const e of events.slice(0, 5)) await publishDurable(js, eventSubject(ns, e.event_type), e, `${e.event_id}-c`);
    const marker = eventOf({ ...msgs[0], message_id: 'marker', chat_id: 'marker@c.us', at: T0 - 60 * MIN, from_me: true }); // waits for nothing
    await publishDurable(js, eventSubject(ns, 'message.created'), marker, marker.event_id);
    await waitUntil(
      async () => (await t.prisma.analyticsMessage.count({ where: { org_id: org } })) === msgs.length + 1,
      'the marker counted',
    );
    const m = await metrics(t.prisma, org, { from: '2026-11-02T08:00:00Z' }); // the marker is before
    expectScriptFigures(m, await now(t.prisma, org), msgs);
    expect(factOf(marker)).not.toBeNull();
  }, 30_000);
});
