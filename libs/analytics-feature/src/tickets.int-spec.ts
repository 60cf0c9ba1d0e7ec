import type { RequestContext, TicketMetricsResult } from '@mapi/contracts';
import { RightNowRpc, TeamMetricsRpc, TicketMetricsRpc } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { eventSubject, publishDurable, type DomainEvent } from '@mapi/events';
import { createOrg, messageRow, newUuid, randomSuffix, testEnv, useTestDatabase, waitUntil } from '@mapi/testing';
import { applyFacts } from './ingest/apply-facts';
import type { MessageFact } from './ingest/message-facts';
import { applyTicketFacts, ticketFactOf, type TicketFact } from './ingest/ticket-facts';
import { useLiveIntake } from './testing/live-intake';
import { rebuildPeriod } from './rebuild/rebuild-period';
import { MetricsRepository } from './repositories/metrics-repository';
import { TeamMetricsRepository, TicketMetricsRepository } from './repositories/ticket-metrics-repository';
import type { ChatReach } from './scope';
import { RightNow } from './usecases/right-now/right-now.usecase';
import { TeamMetrics } from './usecases/team-metrics/team-metrics.usecase';
import { TicketMetrics } from './usecases/ticket-metrics/ticket-metrics.usecase';

/**
 * Ticket figures against Postgres and JetStream: the ticket.* events keep each ticket's newest state,
 * so any order and any number of deliveries give the same figures; another organization's tickets never
 * show; a member sees the tickets of the chats within reach; a rebuild from the stored tickets gives the
 * live figures back; the durable consumer `analytics-tickets` keeps each ticket once.
 */
describe('analytics tickets (integration)', () => {
  const t = useTestDatabase('analytics_tickets_int', { poolSize: 4 });
  const live = useLiveIntake(() => t.prisma, testEnv.natsUrl(), `${testEnv.namespace()}-analytics-t-${randomSuffix(3)}`);

  const T0 = Date.parse('2026-11-02T08:00:00Z');
  const MIN = 60_000;
  const PHONE = `phone-${randomSuffix(4)}`;
  const C1 = '15550001@c.us';
  const C2 = '15550002@c.us';

  interface State {
    ticket_id: string;
    chat_id: string;
    status: string;
    assignee: string | null;
    is_deleted: boolean;
    created_at: number;
    first_assigned_at: number | null;
    closed_at: number | null;
    closed_by: string | null;
    last_updated_at: number;
  }
  type Step = { type: 'ticket.created' | 'ticket.updated' | 'ticket.deleted'; state: State };

  /**
   * T1 on C1: raised unassigned, assigned to a@ after 10 min (in progress), closed after 70 min.
   * T2 on C2: raised assigned to b@ (open). T3 on C1: raised, then deleted. T4 on C2: raised, assigned to
   * a@ after 20 min (in progress).
   */
  const script = (): Step[] => {
    const [t1, t2, t3, t4] = [newUuid(), newUuid(), newUuid(), newUuid()];
    const base = (ticket_id: string, chat_id: string, minutes: number): State => ({
      ticket_id,
      chat_id,
      status: 'open',
      assignee: null,
      is_deleted: false,
      created_at: T0 + minutes * MIN,
      first_assigned_at: null,
      closed_at: null,
      closed_by: null,
      last_updated_at: T0 + minutes * MIN,
    });
    const s1 = base(t1, C1, 0);
    const s1b = { ...s1, status: 'inprogress', assignee: 'a@x.io', first_assigned_at: T0 + 10 * MIN, last_updated_at: T0 + 10 * MIN };
    const s1c = { ...s1b, status: 'closed', closed_at: T0 + 70 * MIN, closed_by: 'a@x.io', last_updated_at: T0 + 70 * MIN };
    const s2 = { ...base(t2, C2, 5), assignee: 'b@x.io', first_assigned_at: T0 + 5 * MIN };
    const s3 = base(t3, C1, 20);
    const s3b = { ...s3, is_deleted: true, last_updated_at: T0 + 30 * MIN };
    const s4 = base(t4, C2, 30);
    const s4b = { ...s4, status: 'inprogress', assignee: 'a@x.io', first_assigned_at: T0 + 50 * MIN, last_updated_at: T0 + 50 * MIN };
    return [
      { type: 'ticket.created', state: s1 },
      { type: 'ticket.updated', state: s1b },
      { type: 'ticket.updated', state: s1c },
      { type: 'ticket.created', state: s2 },
      { type: 'ticket.created', state: s3 },
      { type: 'ticket.deleted', state: s3b },
      { type: 'ticket.created', state: s4 },
      { type: 'ticket.updated', state: s4b },
    ];
  };
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const eventOf = (org: string, s: Step): DomainEvent =>
    ({
      event_id: newUuid(),
      event_type: s.type,
      org_id: org,
      phone_id: PHONE,
      created_at: new Date(s.state.last_updated_at + 3).toISOString(),
      data: {
        ticket_id: s.state.ticket_id,
        org_id: org,
        chat_id: s.state.chat_id,
        subject: 'Help',
        status: s.state.status,
        assignee: s.state.assignee,
        is_deleted: s.state.is_deleted,
        created_at: iso(s.state.created_at),
        first_assigned_at: iso(s.state.first_assigned_at),
        closed_at: iso(s.state.closed_at),
        close_ticket_metadata: s.state.closed_at ? { closed_by: s.state.closed_by, closed_at: iso(s.state.closed_at) } : null,
        last_updated_at: iso(s.state.last_updated_at),
      },
    }) as unknown as DomainEvent;
  const apply = (prisma: PrismaClient, org: string, steps: Step[]) =>
    prisma.$transaction((tx) =>
      applyTicketFacts(
        tx,
        steps.map((s) => ticketFactOf(eventOf(org, s)) as TicketFact),
      ),
    );

  const ctxOf = (org: string, over: Partial<RequestContext> = {}): RequestContext => ({
    org_id: org,
    token_id: newUuid(),
    phone_scope: null,
    phone: null,
    ...over,
  });
  const everyone: ChatReach = async (_ctx, copies) => copies;
  const figures = (org: string, query: Record<string, string> = {}, ctx = ctxOf(org), reach = everyone) =>
    new TicketMetrics(new TicketMetricsRepository(t.prisma), reach).execute(
      TicketMetricsRpc.request.parse({ ctx, query: { from: '2026-11-02T00:00:00Z', to: '2026-11-04T00:00:00Z', ...query } }),
    );

  const team = (org: string, query: Record<string, string> = {}, ctx = ctxOf(org), reach = everyone) =>
    new TeamMetrics(
      new TeamMetricsRepository(t.prisma),
      new MetricsRepository(t.prisma),
      new TicketMetricsRepository(t.prisma),
      reach,
    ).execute(TeamMetricsRpc.request.parse({ ctx, query: { from: '2026-11-02T00:00:00Z', to: '2026-11-04T00:00:00Z', ...query } }));

  /**
   * C1: incoming at 0, answered by a@ at 4 min, b@ writes at 6. C2: incoming at 10, answered by b@ at 12,
   * then an unknown sender at 20; incoming at 30 answered at 40 by an unknown sender.
   */
  const messages = (org: string) => {
    const m = (chat_id: string, id: string, minutes: number, from_me: boolean, performed_by: string | null = null): MessageFact => ({
      org_id: org,
      phone_id: PHONE,
      chat_id,
      message_id: `${from_me}_${chat_id}_${id}`,
      at: T0 + minutes * MIN,
      from_me,
      flagged: false,
      version: T0,
      performed_by,
    });
    return [
      m(C1, 'M1', 0, false),
      m(C1, 'M2', 4, true, 'a@x.io'),
      m(C1, 'M3', 6, true, 'b@x.io'),
      m(C2, 'M4', 10, false),
      m(C2, 'M5', 12, true, 'b@x.io'),
      m(C2, 'M6', 20, true),
      m(C2, 'M7', 30, false),
      m(C2, 'M8', 40, true),
    ];
  };
  const TEAM = [
    {
      member: 'b@x.io',
      active_chats: 2,
      messages_sent: 2,
      first_response_ms: { median: 2 * MIN, count: 1 },
      next_response_ms: { median: null, count: 0 },
      tickets_closed: 0,
      tickets_unresolved: 1,
    },
    {
      member: 'a@x.io',
      active_chats: 1,
      messages_sent: 1,
      first_response_ms: { median: 4 * MIN, count: 1 },
      next_response_ms: { median: null, count: 0 },
      tickets_closed: 1,
      tickets_unresolved: 1,
    },
  ];

  /** The tickets as the inbox service stores them: each one's last state. */
  const storeTickets = async (org: string, steps: Step[]) => {
    const last = new Map(steps.map((s) => [s.state.ticket_id, s.state]));
    await t.prisma.inboxTicket.createMany({
      data: [...last.values()].map((s) => ({
        ticket_id: s.ticket_id,
        org_id: org,
        phone_id: PHONE,
        chat_id: s.chat_id,
        subject: 'Help',
        status: s.status,
        assignee: s.assignee,
        first_assigned_at: s.first_assigned_at === null ? null : new Date(s.first_assigned_at),
        closed_at: s.closed_at === null ? null : new Date(s.closed_at),
        closed_by: s.closed_by,
        is_deleted: s.is_deleted,
        created_at: new Date(s.created_at),
        last_updated_at: new Date(s.last_updated_at),
      })),
    });
  };

  const expectScriptFigures = (m: TicketMetricsResult) => {
    expect(m.totals).toEqual({
      unresolved: 2,
      open: 1,
      in_progress: 1,
      created: 3,
      closed: 1,
      // 10, 0 and 20 minutes
      time_to_first_assignment_ms: { median: 10 * MIN, count: 3 },
      time_to_close_ms: { median: 70 * MIN, count: 1 },
    });
    expect(m.by_assignee).toEqual([
      {
        assignee: 'a@x.io',
        unresolved: 1,
        open: 0,
        in_progress: 1,
        created: 2,
        closed: 1,
        time_to_first_assignment_ms: { median: 15 * MIN, count: 2 },
        time_to_close_ms: { median: 70 * MIN, count: 1 },
      },
      {
        assignee: 'b@x.io',
        unresolved: 1,
        open: 1,
        in_progress: 0,
        created: 1,
        closed: 0,
        time_to_first_assignment_ms: { median: 0, count: 1 },
        time_to_close_ms: { median: null, count: 0 },
      },
    ]);
  };

  it('keeps the newest state of each ticket whatever the order, each event in its own transaction, repeats included', async () => {
    const steps = script();
    const orders = [steps, [...steps].reverse(), [...steps.slice(4), ...steps, ...steps.slice(0, 3).reverse()]];
    for (const order of orders) {
      const org = (await createOrg(t.prisma)).id;
      for (const s of order) await apply(t.prisma, org, [s]);
      expectScriptFigures(await figures(org));
    }
    // all of it in one batch
    const org = (await createOrg(t.prisma)).id;
    await apply(t.prisma, org, [...steps].reverse());
    expectScriptFigures(await figures(org));
    // a period after: nothing raised or closed in it, the unresolved ones still count
    const later = await figures(org, { from: '2026-11-10T00:00:00Z', to: '2026-11-11T00:00:00Z' });
    expect(later.totals).toMatchObject({ unresolved: 2, created: 0, closed: 0, time_to_close_ms: { median: null, count: 0 } });
    // a period before any ticket: nothing
    const before = await figures(org, { from: '2026-10-01T00:00:00Z', to: '2026-10-02T00:00:00Z' });
    expect(before.totals).toMatchObject({ unresolved: 0, created: 0, closed: 0 });
    expect(before.by_assignee).toEqual([]);
  });

  it("never shows another organization's tickets; narrows to a phone; a member sees the tickets of the chats within reach", async () => {
    const org = (await createOrg(t.prisma)).id;
    const other = (await createOrg(t.prisma)).id;
    await apply(t.prisma, other, script());
    expect((await figures(org)).totals).toMatchObject({ unresolved: 0, created: 0, closed: 0 });
    await apply(t.prisma, org, script());
    expectScriptFigures(await figures(org));
    expectScriptFigures(await figures(other));
    expect((await figures(org, { phone_id: 'another-phone' })).totals.created).toBe(0);
    expectScriptFigures(await figures(org, { phone_id: PHONE }));
    await expect(figures(org, { phone_id: PHONE }, ctxOf(org, { phone_scope: ['another-phone'] }))).rejects.toMatchObject({ status: 404 });
    const member = ctxOf(org, { member: { member_id: newUuid(), session_id: newUuid(), email: 'm@example.com', role: 'member' } });
    const onlyC1: ChatReach = async (_ctx, copies) => copies.filter((c) => c.chat_id === C1);
    const m = await figures(org, {}, member, onlyC1);
    expect(m.totals).toMatchObject({ unresolved: 0, created: 1, closed: 1, time_to_close_ms: { median: 70 * MIN, count: 1 } });
    expect(m.by_assignee.map((r) => r.assignee)).toEqual(['a@x.io']);
    const none = await figures(org, {}, member, async () => []);
    expect(none.totals).toMatchObject({ unresolved: 0, created: 0, closed: 0 });
  });

  it('"right now" lists the unresolved tickets oldest first, isolated, narrowed to a phone and to reach', async () => {
    const org = (await createOrg(t.prisma)).id;
    const other = (await createOrg(t.prisma)).id;
    await apply(t.prisma, org, script());
    const open = async (o: string, query: Record<string, string> = {}, ctx = ctxOf(o), reach = everyone) => {
      const answer = await new RightNow(
        new MetricsRepository(t.prisma),
        new TicketMetricsRepository(t.prisma),
        reach,
        () => T0 + 60 * MIN,
      ).execute(RightNowRpc.request.parse({ ctx, query }));
      if (!answer.open_tickets) throw new Error('no open_tickets list in the answer');
      return answer.open_tickets;
    };
    // T2 (open, b@, raised at 5 min) and T4 (in progress, a@, at 30); T1 is closed and T3 deleted
    const all = await open(org);
    expect(all.count).toBe(2);
    expect(all.tickets.map(({ ticket_id, ...rest }) => ({ ...rest, known: typeof ticket_id === 'string' }))).toEqual([
      { phone_id: PHONE, chat_id: C2, status: 'open', assignee: 'b@x.io', created_at: iso(T0 + 5 * MIN), open_ms: 55 * MIN, known: true },
      {
        phone_id: PHONE,
        chat_id: C2,
        status: 'inprogress',
        assignee: 'a@x.io',
        created_at: iso(T0 + 30 * MIN),
        open_ms: 30 * MIN,
        known: true,
      },
    ]);
    expect(await open(org, { limit: '1' })).toEqual({ count: 2, tickets: [all.tickets[0]] });
    expect(await open(other)).toEqual({ count: 0, tickets: [] });
    expect(await open(org, { phone_id: 'another-phone' })).toEqual({ count: 0, tickets: [] });
    const member = ctxOf(org, { member: { member_id: newUuid(), session_id: newUuid(), email: 'm@example.com', role: 'member' } });
    expect(await open(org, {}, member, async (_ctx, copies) => copies.filter((c) => c.chat_id === C1))).toEqual({ count: 0, tickets: [] });
    expect(await open(org, {}, member, async (_ctx, copies) => copies.filter((c) => c.chat_id === C2))).toEqual(all);
  });

  it('a rebuild from the stored tickets gives the live figures, also after the ticket states were damaged', async () => {
    const org = (await createOrg(t.prisma)).id;
    const steps = script();
    await apply(t.prisma, org, steps);
    const live = await figures(org);
    await storeTickets(org, steps);
    await t.prisma
      .$executeRaw`UPDATE analytics_tickets SET status = 'open', closed_at = NULL, version = now() + interval '1 day' WHERE org_id = ${org}::uuid`;
    await t.prisma.$executeRaw`DELETE FROM analytics_tickets WHERE org_id = ${org}::uuid AND assignee = 'b@x.io'`;
    expect(await figures(org)).not.toEqual(live);
    const result = await rebuildPeriod(t.prisma, org, '2026-11-01T00:00:00Z', '2026-11-05T00:00:00Z');
    expect(result.tickets).toBe(4);
    expect(await figures(org)).toEqual(live);
    // a late (older) event after the rebuild changes nothing; a redelivered one neither
    await apply(t.prisma, org, [steps[0], steps[2]]);
    expect(await figures(org)).toEqual(live);
  });

  it('team: per member messages sent, first responses and tickets; isolated, narrowed to reach, and equal after a rebuild', async () => {
    const org = (await createOrg(t.prisma)).id;
    const other = (await createOrg(t.prisma)).id;
    await apply(t.prisma, other, script());
    await t.prisma.$transaction((tx) => applyFacts(tx, messages(other)));
    expect((await team(org)).members).toEqual([]);
    const steps = script();
    await apply(t.prisma, org, steps);
    await storeTickets(org, steps);
    const msgs = messages(org);
    for (const f of [...msgs].reverse()) await t.prisma.$transaction((tx) => applyFacts(tx, [f, msgs[0]]));
    const live = await team(org);
    expect(live.members).toEqual(TEAM);
    expect((await team(other)).members).toEqual(TEAM);
    expect((await team(org, { phone_id: 'another-phone' })).members).toEqual([]);
    const member = ctxOf(org, { member: { member_id: newUuid(), session_id: newUuid(), email: 'm@example.com', role: 'member' } });
    const onlyC1: ChatReach = async (_ctx, copies) => copies.filter((c) => c.chat_id === C1);
    expect((await team(org, {}, member, onlyC1)).members).toEqual([
      {
        member: 'a@x.io',
        active_chats: 1,
        messages_sent: 1,
        first_response_ms: { median: 4 * MIN, count: 1 },
        next_response_ms: { median: null, count: 0 },
        tickets_closed: 1,
        tickets_unresolved: 0,
      },
      {
        member: 'b@x.io',
        active_chats: 1,
        messages_sent: 1,
        first_response_ms: { median: null, count: 0 },
        next_response_ms: { median: null, count: 0 },
        tickets_closed: 0,
        tickets_unresolved: 0,
      },
    ]);
    // the same messages as the chats service stores them, senders included: a rebuild gives the same figures
    await t.prisma.message.createMany({
      data: msgs.map((f) =>
        messageRow(
          { id: org },
          { phone_id: PHONE, org_phone: '14155550100@c.us' },
          {
            chatId: f.chat_id,
            fromMe: f.from_me,
            timestamp: new Date(f.at),
            overrides: { message_id: f.message_id, performed_by: f.performed_by ?? null },
          },
        ),
      ),
    });
    await t.prisma.$executeRaw`UPDATE analytics_messages SET performed_by = NULL WHERE org_id = ${org}::uuid`;
    await rebuildPeriod(t.prisma, org, '2026-11-01T00:00:00Z', '2026-11-05T00:00:00Z');
    expect(await team(org)).toEqual(live);
  });

  it('the durable consumer keeps each ticket once, however often and in whatever order its events are published', async () => {
    const { nc, ns } = await live.start();
    const org = (await createOrg(t.prisma)).id;
    const events = script()
      .map((s) => eventOf(org, s))
      .reverse();
    const js = nc.jetstream();
    // each event under two message ids (a replay the duplicate window does not catch)
    for (const e of events) await publishDurable(js, eventSubject(ns, e.event_type), e, `${e.event_id}-a`);
    for (const e of [...events].reverse()) await publishDurable(js, eventSubject(ns, e.event_type), e, `${e.event_id}-b`);
    await waitUntil(
      async () => (await figures(org)).totals.closed === 1 && (await figures(org)).totals.unresolved === 2,
      'the tickets kept',
    );
    expect(await t.prisma.analyticsTicket.count({ where: { org_id: org } })).toBe(4);
    expectScriptFigures(await figures(org));
  }, 30_000);
});
