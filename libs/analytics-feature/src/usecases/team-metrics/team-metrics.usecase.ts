import { slotPeriod, type ChatCopy, type TeamMetricsRequest, type TeamMetricsResult } from '@mapi/contracts';
import type { MetricsRepository } from '../../repositories/metrics-repository';
import type { TeamMetricsRepository, TicketMetricsRepository } from '../../repositories/ticket-metrics-repository';
import { MEMBER_PERIOD_CHATS, isMember, memberScope, scopeOf, type ChatReach } from '../../scope';

/**
 * GET /analytics/team: per member as the events name them (message sender, ticket assignee), active chats, messages
 * sent, first and next responses, tickets closed and unresolved, from the analytics service's tables of the
 * organization (ctx.org_id) and the scope's phones. For a console member, of the chats within their reach
 * (the period's active chats and the chats of its tickets, checked by the chats service).
 */
export class TeamMetrics {
  constructor(
    private readonly team: TeamMetricsRepository,
    private readonly metrics: MetricsRepository,
    private readonly tickets: TicketMetricsRepository,
    private readonly reach: ChatReach,
  ) {}

  async execute({ ctx, query }: TeamMetricsRequest): Promise<TeamMetricsResult> {
    let scope = scopeOf(ctx, query.phone_id);
    const { from, to } = slotPeriod(query.from, query.to);
    if (isMember(ctx)) {
      const [active, ticketChats] = await Promise.all([
        this.metrics.activeChats(scope, from, to, MEMBER_PERIOD_CHATS + 1),
        this.tickets.ticketChats(scope, from, to, MEMBER_PERIOD_CHATS + 1),
      ]);
      const copies = new Map<string, ChatCopy>();
      for (const c of [...active, ...ticketChats]) copies.set(`${c.phone_id}\u0000${c.chat_id}`, c);
      scope = await memberScope(ctx, scope, [...copies.values()], this.reach, query.to);
    }
    const [rows, businessHours] = await Promise.all([this.team.members(scope, from, to), this.metrics.businessHours(scope.orgId)]);
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      tz: query.tz,
      phone_id: query.phone_id ?? null,
      business_hours: businessHours,
      members: rows.map((r) => ({
        member: r.member,
        active_chats: r.active_chats,
        messages_sent: r.messages_sent,
        first_response_ms: { median: r.first_response_median, count: r.first_responses },
        next_response_ms: { median: r.next_response_median, count: r.next_responses },
        tickets_closed: r.tickets_closed,
        tickets_unresolved: r.tickets_unresolved,
      })),
    };
  }
}
