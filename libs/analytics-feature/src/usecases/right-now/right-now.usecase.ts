import { NOW_LISTS, type NowList, type RightNowRequest, type RightNowResult } from '@mapi/contracts';
import type { MetricsRepository } from '../../repositories/metrics-repository';
import type { TicketMetricsRepository } from '../../repositories/ticket-metrics-repository';
import { isMember, scopeOf, type ChatReach, type UnreadChats } from '../../scope';

/** A member's lists are filtered from at most this many chats each (docs/services/analytics.md, "Not yet"). */
export const MEMBER_CANDIDATES = 10_000;

const key = (c: { phone_id: string; chat_id: string }) => `${c.phone_id}\u0000${c.chat_id}`;

/**
 * GET /analytics/now: the chats waiting for a response (longest first), those with flagged
 * messages, the unresolved tickets (oldest first) and the chats breaching an SLA now (earliest deadline first),
 * from the analytics per-chat state of the organization (ctx.org_id) and the scope's phones, and the number of
 * unread chats, asked of the chats service (which owns unread counts and read marks); only the lists
 * asked for (`lists`, default all) are read.
 * A console member sees only the chats within their reach (the chats service decides, per copy).
 */
export class RightNow {
  constructor(
    private readonly metrics: MetricsRepository,
    private readonly tickets: TicketMetricsRepository,
    private readonly reach: ChatReach,
    private readonly unread: UnreadChats,
    private readonly now: () => number = Date.now,
  ) {}

  async execute({ ctx, query }: RightNowRequest): Promise<RightNowResult> {
    const scope = scopeOf(ctx, query.phone_id);
    const asOf = this.now();
    const asked = new Set<NowList>(query.lists ?? NOW_LISTS);
    const list = <T extends { phone_id: string; chat_id: string }>(
      name: NowList,
      page: (offset: number, limit: number) => Promise<T[]>,
      count: () => Promise<number>,
    ) => (asked.has(name) ? this.list(ctx, page, count, query.limit) : Promise.resolve(null));
    const [waiting, flagged, open, breaching, unread] = await Promise.all([
      list(
        'waiting',
        (o, l) => this.metrics.waiting(scope, o, l),
        () => this.metrics.waitingCount(scope),
      ),
      list(
        'flagged',
        (o, l) => this.metrics.flagged(scope, o, l),
        () => this.metrics.flaggedCount(scope),
      ),
      list(
        'open_tickets',
        (o, l) => this.tickets.open(scope, o, l),
        () => this.tickets.openCount(scope),
      ),
      list(
        'breaching',
        (o, l) => this.metrics.breaching(scope, o, l),
        () => this.metrics.breachingCount(scope),
      ),
      // the chats service counts within the ctx's reach; scopeOf has checked phone_id against the ctx's phones
      asked.has('unread_chats') ? this.unread(ctx, query.phone_id) : Promise.resolve(null),
    ]);
    const since = (at: Date) => Math.max(0, asOf - at.getTime());
    return {
      as_of: new Date(asOf).toISOString(),
      ...(waiting && {
        waiting: {
          count: waiting.count,
          chats: waiting.rows.map((r) => ({
            phone_id: r.phone_id,
            chat_id: r.chat_id,
            message_id: r.waiting_message_id,
            waiting_since: r.waiting_since.toISOString(),
            waiting_ms: since(r.waiting_since),
          })),
        },
      }),
      ...(flagged && {
        flagged: {
          count: flagged.count,
          chats: flagged.rows.map((r) => ({ phone_id: r.phone_id, chat_id: r.chat_id, flagged_messages: r.flagged_count })),
        },
      }),
      ...(open && {
        open_tickets: {
          count: open.count,
          tickets: open.rows.map((r) => ({
            ticket_id: r.ticket_id,
            phone_id: r.phone_id,
            chat_id: r.chat_id,
            status: r.status,
            assignee: r.assignee,
            created_at: r.created_at.toISOString(),
            open_ms: since(r.created_at),
          })),
        },
      }),
      ...(breaching && {
        breaching: {
          count: breaching.count,
          chats: breaching.rows.map((r) => ({
            phone_id: r.phone_id,
            chat_id: r.chat_id,
            message_id: r.message_id,
            waiting_since: r.waiting_since.toISOString(),
            waiting_ms: since(r.waiting_since),
            due_at: r.due_at.toISOString(),
            breached_at: r.breached_at.toISOString(),
            overdue_ms: since(r.due_at),
            policies: r.policies,
          })),
        },
      }),
      unread_chats: unread,
    };
  }

  /** The first `limit` rows and how many there are; for a member, of the rows within reach. */
  private async list<T extends { phone_id: string; chat_id: string }>(
    ctx: RightNowRequest['ctx'],
    page: (offset: number, limit: number) => Promise<T[]>,
    count: () => Promise<number>,
    limit: number,
  ): Promise<{ rows: T[]; count: number }> {
    if (!isMember(ctx)) {
      const [rows, n] = await Promise.all([page(0, limit), count()]);
      return { rows, count: n };
    }
    const candidates = await page(0, MEMBER_CANDIDATES);
    const reached = candidates.length
      ? new Set(
          (
            await this.reach(
              ctx,
              candidates.map((c) => ({ phone_id: c.phone_id, chat_id: c.chat_id })),
            )
          ).map(key),
        )
      : new Set<string>();
    const visible = candidates.filter((c) => reached.has(key(c)));
    return { rows: visible.slice(0, limit), count: visible.length };
  }
}
