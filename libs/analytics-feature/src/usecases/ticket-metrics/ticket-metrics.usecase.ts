import { slotPeriod, type TicketMetricsRequest, type TicketMetricsResult } from '@mapi/contracts';
import type { TicketFigures, TicketMetricsRepository } from '../../repositories/ticket-metrics-repository';
import { MEMBER_PERIOD_CHATS, isMember, memberScope, scopeOf, type ChatReach } from '../../scope';

type Counts = TicketMetricsResult['totals'];

/** A figures row as the answer writes it. */
export function ticketCounts(r: TicketFigures): Counts {
  return {
    unresolved: r.unresolved,
    open: r.open,
    in_progress: r.in_progress,
    created: r.created,
    closed: r.closed,
    time_to_first_assignment_ms: { median: r.first_assignment_median, count: r.first_assignment_count },
    time_to_close_ms: { median: r.close_median, count: r.close_count },
  };
}

const NONE: TicketFigures = {
  unresolved: 0,
  open: 0,
  in_progress: 0,
  created: 0,
  closed: 0,
  first_assignment_median: null,
  first_assignment_count: 0,
  close_median: null,
  close_count: 0,
};

/**
 * GET /analytics/tickets: the ticket figures of the period, in total and per assignee, from the
 * analytics service's ticket states (the newest state of each ticket the ticket.* events announced)
 * of the organization (ctx.org_id) and the scope's phones. For a console member, of the tickets of the
 * chats within their reach (the chats service decides, per copy).
 */
export class TicketMetrics {
  constructor(
    private readonly tickets: TicketMetricsRepository,
    private readonly reach: ChatReach,
  ) {}

  async execute({ ctx, query }: TicketMetricsRequest): Promise<TicketMetricsResult> {
    let scope = scopeOf(ctx, query.phone_id);
    const { from, to } = slotPeriod(query.from, query.to);
    if (isMember(ctx)) {
      const candidates = await this.tickets.ticketChats(scope, from, to, MEMBER_PERIOD_CHATS + 1);
      scope = await memberScope(ctx, scope, candidates, this.reach, query.to, "the period's tickets are on");
    }
    const rows = await this.tickets.figures(scope, from, to);
    const total = rows.find((r) => r.total) ?? NONE;
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      tz: query.tz,
      phone_id: query.phone_id ?? null,
      totals: ticketCounts(total),
      by_assignee: rows.filter((r) => !r.total).map((r) => ({ assignee: r.assignee, ...ticketCounts(r) })),
    };
  }
}
