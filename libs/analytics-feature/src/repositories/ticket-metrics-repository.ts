import type { ChatCopy } from '@mapi/contracts';
import { Prisma, type PrismaClient } from '@mapi/db';
import { chatFilter, responseMsSql, type MetricsScope } from './metrics-repository';

/** The figures of a set of tickets (all of them, or one assignee's). */
export interface TicketFigures {
  unresolved: number;
  open: number;
  in_progress: number;
  created: number;
  closed: number;
  first_assignment_median: number | null;
  first_assignment_count: number;
  close_median: number | null;
  close_count: number;
}

export interface TicketFigureRow extends TicketFigures {
  /** true: the totals row; false: the row of `assignee` (null: unassigned). */
  total: boolean;
  assignee: string | null;
}

/**
 * The tickets a period's figures are of: not deleted, within the scope, raised before `to`, and either
 * unresolved now, raised in the period or closed in it (any other counts nothing).
 */
const relevant = (scope: MetricsScope, from: Date, to: Date) => Prisma.sql`
  org_id = ${scope.orgId}::uuid AND NOT is_deleted AND created_at < ${to}
  AND (${scope.phones}::text[] IS NULL OR phone_id = ANY(${scope.phones}::text[])) ${chatFilter(scope)}
  AND (status IN ('open', 'inprogress') OR created_at >= ${from} OR (closed_at >= ${from} AND closed_at < ${to}))`;

/** The ticket figures' reads: the analytics service's ticket states only (never the inbox's tickets on a request). */
export class TicketMetricsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The totals row and one row per assignee, in one pass (GROUPING SETS). */
  figures(scope: MetricsScope, from: Date, to: Date): Promise<TicketFigureRow[]> {
    const closedIn = Prisma.sql`closed_at >= ${from} AND closed_at < ${to} AND status NOT IN ('open', 'inprogress')`;
    return this.prisma.$queryRaw<TicketFigureRow[]>`
      SELECT GROUPING(assignee) = 1 AS total, assignee,
        count(*) FILTER (WHERE status IN ('open', 'inprogress'))::int AS unresolved,
        count(*) FILTER (WHERE status = 'open')::int AS open,
        count(*) FILTER (WHERE status = 'inprogress')::int AS in_progress,
        count(*) FILTER (WHERE created_at >= ${from})::int AS created,
        count(*) FILTER (WHERE ${closedIn})::int AS closed,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY (extract(epoch FROM first_assigned_at - created_at) * 1000)::float8)
          FILTER (WHERE created_at >= ${from} AND first_assigned_at IS NOT NULL) AS first_assignment_median,
        count(*) FILTER (WHERE created_at >= ${from} AND first_assigned_at IS NOT NULL)::int AS first_assignment_count,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY (extract(epoch FROM closed_at - created_at) * 1000)::float8)
          FILTER (WHERE ${closedIn}) AS close_median,
        count(*) FILTER (WHERE ${closedIn})::int AS close_count
      FROM analytics_tickets WHERE ${relevant(scope, from, to)}
      GROUP BY GROUPING SETS ((), (assignee))
      ORDER BY total DESC, unresolved DESC, closed DESC, assignee NULLS LAST`;
  }

  /** The chat copies of the period's tickets, at most `limit` (a member's figures are narrowed from them). */
  ticketChats(scope: MetricsScope, from: Date, to: Date, limit: number): Promise<ChatCopy[]> {
    return this.prisma.$queryRaw<ChatCopy[]>`
      SELECT DISTINCT phone_id, chat_id FROM analytics_tickets WHERE ${relevant(scope, from, to)} LIMIT ${limit}`;
  }

  /** The unresolved tickets within the scope, oldest first: `limit` of them after `offset`. */
  open(scope: MetricsScope, offset: number, limit: number): Promise<OpenTicketRow[]> {
    return this.prisma.$queryRaw<OpenTicketRow[]>`
      SELECT ticket_id, phone_id, chat_id, status, assignee, created_at FROM analytics_tickets WHERE ${unresolved(scope)}
      ORDER BY created_at, ticket_id OFFSET ${offset} LIMIT ${limit}`;
  }

  async openCount(scope: MetricsScope): Promise<number> {
    const [row] = await this.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM analytics_tickets WHERE ${unresolved(scope)}`;
    return row.n;
  }
}

const unresolved = (scope: MetricsScope) => Prisma.sql`
  org_id = ${scope.orgId}::uuid AND NOT is_deleted AND status IN ('open', 'inprogress')
  AND (${scope.phones}::text[] IS NULL OR phone_id = ANY(${scope.phones}::text[])) ${chatFilter(scope)}`;

/** An unresolved ticket (open or in progress) for "right now". */
export interface OpenTicketRow {
  ticket_id: string;
  phone_id: string;
  chat_id: string;
  status: 'open' | 'inprogress';
  assignee: string | null;
  created_at: Date;
}

export interface TeamRow {
  member: string;
  /** Chat copies (phone, chat) the member sent at least one message to in the period. */
  active_chats: number;
  messages_sent: number;
  first_response_median: number | null;
  first_responses: number;
  next_response_median: number | null;
  next_responses: number;
  tickets_closed: number;
  tickets_unresolved: number;
}

/** The team figures' reads: counted messages (their sender), first and next responses and ticket states. */
export class TeamMetricsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * One row per member (sender or assignee) with anything in the period, most messages sent first. A sender is the
   * counted message's performed_by (a console member's email, an API token's id; docs/services/analytics.md "Team"),
   * read from the per-slot member counters (analytics_member_slots) and the responses' responder, never the counted
   * messages; the periods are whole slots (slotPeriod), so the figures are those of the messages themselves.
   */
  members(scope: MetricsScope, from: Date, to: Date): Promise<TeamRow[]> {
    const { orgId, phones } = scope;
    const chats = chatFilter(scope);
    const inScope = Prisma.sql`org_id = ${orgId}::uuid AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[])) ${chats}`;
    return this.prisma.$queryRaw<TeamRow[]>`
      WITH sent AS (
        -- (member, chat) pairs first (a hash aggregate), then per member: count(DISTINCT) would sort every slot row
        SELECT member, sum(n)::int AS n, count(*)::int AS chats FROM (
          SELECT member, phone_id, chat_id, sum(sent) AS n FROM analytics_member_slots
          WHERE ${inScope} AND slot >= ${from} AND slot < ${to}
          GROUP BY 1, 2, 3) d
        GROUP BY 1),
      responses AS (
        SELECT responder AS member,
          count(*) FILTER (WHERE NOT is_next)::int AS n,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE NOT is_next) AS median,
          count(*) FILTER (WHERE is_next)::int AS next_n,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE is_next) AS next_median
        FROM (SELECT responder, is_next, ${responseMsSql(orgId)} AS ms FROM analytics_responses
              WHERE ${inScope} AND incoming_at >= ${from} AND incoming_at < ${to} AND responder IS NOT NULL) r
        GROUP BY 1),
      tickets AS (
        SELECT assignee AS member,
          count(*) FILTER (WHERE closed_at >= ${from} AND closed_at < ${to} AND status NOT IN ('open', 'inprogress'))::int AS closed,
          count(*) FILTER (WHERE status IN ('open', 'inprogress'))::int AS unresolved
        FROM analytics_tickets
        WHERE ${inScope} AND NOT is_deleted AND assignee IS NOT NULL AND created_at < ${to}
          AND (status IN ('open', 'inprogress') OR (closed_at >= ${from} AND closed_at < ${to}))
        GROUP BY 1)
      SELECT member, COALESCE(sent.chats, 0) AS active_chats, COALESCE(sent.n, 0) AS messages_sent, responses.median AS first_response_median,
        COALESCE(responses.n, 0) AS first_responses, responses.next_median AS next_response_median,
        COALESCE(responses.next_n, 0) AS next_responses, COALESCE(tickets.closed, 0) AS tickets_closed,
        COALESCE(tickets.unresolved, 0) AS tickets_unresolved
      FROM sent FULL JOIN responses USING (member) FULL JOIN tickets USING (member)
      ORDER BY messages_sent DESC, tickets_closed DESC, member`;
  }
}
