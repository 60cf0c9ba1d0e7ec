import { TicketMetricsRpc, type ChatCopy, type RequestContext } from '@mapi/contracts';
import { dedupeTicketFacts, isNewer, ticketFactOf, type TicketFact } from '../../ingest/ticket-facts';
import type { MetricsScope } from '../../repositories/metrics-repository';
import type { TicketFigureRow, TicketMetricsRepository } from '../../repositories/ticket-metrics-repository';
import { TicketMetrics } from './ticket-metrics.usecase';

const ctx = {
  org_id: '00000000-0000-4000-8000-000000000001',
  token_id: '00000000-0000-4000-8000-000000000002',
  phone_scope: null,
  phone: null,
};
const period = { from: '2026-11-01T00:00:00+01:00', to: '2026-11-08T00:00:00+01:00' };
const issues = (query: Record<string, string>) => {
  const r = TicketMetricsRpc.request.safeParse({ ctx, query });
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('GET /analytics/tickets query', () => {
  it('takes a period and a time zone (UTC by default) and a phone, as the messages route does', () => {
    const r = TicketMetricsRpc.request.safeParse({ ctx, query: period });
    expect(r.success && r.data.query).toEqual({ ...period, tz: 'UTC' });
    expect(issues({ ...period, tz: 'Asia/Kolkata', phone_id: 'phone-1' })).toEqual([]);
  });

  it('refuses an empty, reversed or too long period, unknown zones and bad instants', () => {
    expect(issues({ from: period.to, to: period.from })).toEqual(['query.to: to must be after from']);
    expect(issues({ from: '2025-01-01T00:00:00Z', to: '2026-01-03T00:00:00Z' })).toEqual([
      'query.to: the period must not be longer than 366 days',
    ]);
    for (const tz of ['Mars/Olympus', '+01:00', '']) expect(issues({ ...period, tz }).some((i) => i.startsWith('query.tz'))).toBe(true);
    expect(issues({ ...period, from: '2026-11-01' }).some((i) => i.startsWith('query.from'))).toBe(true);
    expect(issues({ ...period, phone_id: '' }).some((i) => i.startsWith('query.phone_id'))).toBe(true);
  });
});

const ticket = (over: Record<string, unknown> = {}) => ({
  ticket_id: 't-1',
  chat_id: '1@c.us',
  status: 'open',
  assignee: 'a@x.io',
  is_deleted: false,
  created_at: '2026-11-02T10:00:00.000Z',
  first_assigned_at: '2026-11-02T10:05:00.000Z',
  closed_at: null,
  close_ticket_metadata: null,
  last_updated_at: '2026-11-02T10:05:00.000Z',
  ...over,
});
const event = (type: string, data: unknown, created_at = '2026-11-02T10:05:00.010Z') => ({
  event_id: 'e',
  event_type: type,
  org_id: ctx.org_id,
  phone_id: 'phone-1',
  created_at,
  data,
});

describe('ticket facts', () => {
  it('reads the ticket of ticket.created, ticket.updated and ticket.deleted, nothing else', () => {
    const f = ticketFactOf(event('ticket.created', ticket()));
    expect(f).toMatchObject({
      ticket_id: 't-1',
      phone_id: 'phone-1',
      status: 'open',
      assignee: 'a@x.io',
      is_deleted: false,
      created_at: Date.parse('2026-11-02T10:00:00Z'),
      first_assigned_at: Date.parse('2026-11-02T10:05:00Z'),
      version: Date.parse('2026-11-02T10:05:00Z'),
      event_at: Date.parse('2026-11-02T10:05:00.010Z'),
    });
    expect(ticketFactOf(event('ticket.deleted', ticket()))?.is_deleted).toBe(true);
    const closed = ticketFactOf(
      event(
        'ticket.updated',
        ticket({ status: 'closed', closed_at: '2026-11-03T00:00:00Z', close_ticket_metadata: { closed_by: 'b@x.io' } }),
      ),
    );
    expect(closed).toMatchObject({ status: 'closed', closed_at: Date.parse('2026-11-03T00:00:00Z'), closed_by: 'b@x.io' });
    expect(ticketFactOf(event('message.created', ticket()))).toBeNull();
    expect(ticketFactOf(event('ticket.updated', { ...ticket(), ticket_id: 3 }))).toBeNull();
    expect(ticketFactOf(event('ticket.updated', ticket({ created_at: 'never' })))).toBeNull();
    expect(ticketFactOf({ ...event('ticket.created', ticket()), phone_id: null })).toBeNull();
    expect(ticketFactOf(event('ticket.created', ticket({ assignee: '' })))?.assignee).toBeNull();
  });

  it('keeps the newest state of each ticket: by version, then by event time, whatever the order', () => {
    const at = (version: string, eventAt: string, status: string) =>
      ticketFactOf(event('ticket.updated', ticket({ status, last_updated_at: version }), eventAt)) as TicketFact;
    const a = at('2026-11-02T10:00:00Z', '2026-11-02T10:00:01Z', 'open');
    const b = at('2026-11-02T11:00:00Z', '2026-11-02T11:00:01Z', 'inprogress');
    const c = at('2026-11-02T11:00:00Z', '2026-11-02T11:00:02Z', 'closed');
    expect(isNewer(b, a) && isNewer(c, b) && !isNewer(a, c) && !isNewer(c, c)).toBe(true);
    for (const order of [
      [a, b, c],
      [c, b, a],
      [b, c, a, c, a],
    ]) {
      expect(dedupeTicketFacts(order).map((f) => f.status)).toEqual(['closed']);
    }
    const other = { ...a, ticket_id: 't-0' };
    expect(dedupeTicketFacts([a, other]).map((f) => f.ticket_id)).toEqual(['t-0', 't-1']);
  });
});

const row = (over: Partial<TicketFigureRow>): TicketFigureRow => ({
  total: false,
  assignee: null,
  unresolved: 0,
  open: 0,
  in_progress: 0,
  created: 0,
  closed: 0,
  first_assignment_median: null,
  first_assignment_count: 0,
  close_median: null,
  close_count: 0,
  ...over,
});

describe('TicketMetrics', () => {
  const fake = (rows: TicketFigureRow[], chats: ChatCopy[] = []) => {
    const seen: MetricsScope[] = [];
    const repo = {
      figures: async (scope: MetricsScope) => (seen.push(scope), rows),
      ticketChats: async () => chats,
    } as unknown as TicketMetricsRepository;
    return { repo, seen };
  };

  it('answers the totals and one row per assignee, as the contract says', async () => {
    const { repo, seen } = fake([
      row({ total: true, unresolved: 2, open: 1, in_progress: 1, closed: 1, close_median: 60_000, close_count: 1 }),
      row({ assignee: 'a@x.io', unresolved: 2, open: 1, in_progress: 1 }),
      row({ assignee: null, closed: 1, close_median: 60_000, close_count: 1 }),
    ]);
    const request = TicketMetricsRpc.request.parse({ ctx, query: { ...period, phone_id: 'p1' } });
    const answer = await new TicketMetrics(repo, async () => []).execute(request);
    expect(TicketMetricsRpc.response.parse(answer)).toEqual(answer);
    expect(answer.from).toBe('2026-10-31T23:00:00.000Z');
    expect(answer.totals).toMatchObject({ unresolved: 2, closed: 1, time_to_close_ms: { median: 60_000, count: 1 } });
    expect(answer.by_assignee.map((r) => r.assignee)).toEqual(['a@x.io', null]);
    expect(seen[0]).toEqual({ orgId: ctx.org_id, phones: ['p1'] });
  });

  it("answers zeros without any row, and 404 for a phone outside the token's", async () => {
    const { repo } = fake([]);
    const answer = await new TicketMetrics(repo, async () => []).execute(TicketMetricsRpc.request.parse({ ctx, query: period }));
    expect(answer.totals).toMatchObject({ unresolved: 0, closed: 0, time_to_close_ms: { median: null, count: 0 } });
    const scoped = { ...ctx, phone_scope: ['p1'] };
    await expect(
      new TicketMetrics(repo, async () => []).execute(
        TicketMetricsRpc.request.parse({ ctx: scoped, query: { ...period, phone_id: 'p2' } }),
      ),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("narrows a member's figures to the tickets of the chats within their reach", async () => {
    const chats = [
      { phone_id: 'p1', chat_id: '1@c.us' },
      { phone_id: 'p1', chat_id: '2@c.us' },
    ];
    const { repo, seen } = fake([row({ total: true })], chats);
    const member = { ...ctx, member: { member_id: 'm', role: 'member' } } as unknown as RequestContext;
    await new TicketMetrics(repo, async (_ctx, copies) => copies.slice(0, 1)).execute({ ctx: member, query: { ...period, tz: 'UTC' } });
    expect(seen[0].chats).toEqual([chats[0]]);
  });
});
