import type { TicketMetricsResult } from '@mapi/contracts';
import { RightNowRpc, TicketMetricsRpc } from '@mapi/contracts';
import { eventSubject, publishDurable } from '@mapi/events';
import { createOrg, randomSuffix, testEnv, useTestDatabase, waitUntil } from '@mapi/testing';
import { useLiveIntake } from './testing/live-intake';
import {
  C1,
  C2,
  MIN,
  PHONE,
  T0,
  apply,
  ctxOf,
  eventOf,
  everyone,
  iso,
  memberCtx,
  onlyC1,
  script,
  storeTickets,
} from './testing/tickets-fixture';
import { rebuildPeriod } from './rebuild/rebuild-period';
import { MetricsRepository } from './repositories/metrics-repository';
import { TicketMetricsRepository } from './repositories/ticket-metrics-repository';
import { RightNow } from './usecases/right-now/right-now.usecase';
import { TicketMetrics } from './usecases/ticket-metrics/ticket-metrics.usecase';
import { noUnreadChats } from './testing/chats-stubs';

/**
 * Ticket figures against Postgres and JetStream: the ticket.* events keep each ticket's newest state,
 * so any order and any number of deliveries give the same figures; another organization's tickets never
 * show; a member sees the tickets of the chats within reach; a rebuild from the stored tickets gives the
 * live figures back; the durable consumer `analytics-tickets` keeps each ticket once.
 */
describe('analytics tickets (integration)', () => {
  const t = useTestDatabase('analytics_tickets_int', { poolSize: 4 });
  const live = useLiveIntake(() => t.prisma, testEnv.natsUrl(), `${testEnv.namespace()}-analytics-t-${randomSuffix(3)}`);
  const figures = (org: string, query: Record<string, string> = {}, ctx = ctxOf(org), reach = everyone) =>
    new TicketMetrics(new TicketMetricsRepository(t.prisma), reach).execute(
      TicketMetricsRpc.request.parse({ ctx, query: { from: '2026-11-02T00:00:00Z', to: '2026-11-04T00:00:00Z', ...query } }),
    );

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
    const member = memberCtx(org);
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
        noUnreadChats,
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
    const member = memberCtx(org);
    expect(await open(org, {}, member, async (_ctx, copies) => copies.filter((c) => c.chat_id === C1))).toEqual({ count: 0, tickets: [] });
    expect(await open(org, {}, member, async (_ctx, copies) => copies.filter((c) => c.chat_id === C2))).toEqual(all);
  });

  it('a rebuild from the stored tickets gives the live figures, also after the ticket states were damaged', async () => {
    const org = (await createOrg(t.prisma)).id;
    const steps = script();
    await apply(t.prisma, org, steps);
    const live = await figures(org);
    await storeTickets(t.prisma, org, steps);
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
