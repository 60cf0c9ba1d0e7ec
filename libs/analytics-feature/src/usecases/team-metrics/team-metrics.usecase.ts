import { slotPeriod, type ChatCopy, type TeamMetricsRequest, type TeamMetricsResult } from '@mapi/contracts';
import type { MetricsRepository } from '../../repositories/metrics-repository';
import type { TeamMetricsRepository, TicketMetricsRepository } from '../../repositories/ticket-metrics-repository';
import { MEMBER_PERIOD_CHATS, isMember, memberScope, scopeOf, type ChatReach } from '../../scope';

/** Names of the organization's API tokens among the given keys (members.v1.tokens.names: id → name). */
export type TokenNames = (ctx: TeamMetricsRequest['ctx'], keys: string[]) => Promise<Map<string, string>>;

/**
 * GET /analytics/team: per member as the events name them (message sender, ticket assignee), active chats, messages
 * sent, first and next responses, tickets closed and unresolved, from the analytics service's tables of the
 * organization (ctx.org_id) and the scope's phones. For a console member, of the chats within their reach
 * (the period's active chats and the chats of its tickets, checked by the chats service). A row naming an API
 * token by its id carries the token's name, asked of the members service that owns tokens.
 */
export class TeamMetrics {
  constructor(
    private readonly team: TeamMetricsRepository,
    private readonly metrics: MetricsRepository,
    private readonly tickets: TicketMetricsRepository,
    private readonly reach: ChatReach,
    private readonly tokenNames: TokenNames,
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
    const names = rows.length
      ? await this.tokenNames(
          ctx,
          rows.map((r) => r.member),
        )
      : new Map<string, string>();
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      tz: query.tz,
      phone_id: query.phone_id ?? null,
      business_hours: businessHours,
      members: rows.map((r) => ({
        member: r.member,
        name: names.get(r.member) ?? null,
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
