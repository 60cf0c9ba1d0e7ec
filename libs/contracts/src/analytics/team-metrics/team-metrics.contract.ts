import type { CsvCell } from '../../http/define-route';
import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MAX_PERIOD_DAYS } from '../period/period';
import { TicketMetricsQuery } from '../ticket-metrics/ticket-metrics.contract';

/** Ours (issue 34): the period (from, to, tz as GET /analytics/messages takes them) and an optional phone. */
export const TeamMetricsQuery = TicketMetricsQuery;

export const TeamMetricsResultSchema = z.object({
  from: z.string(),
  to: z.string(),
  tz: z.string(),
  phone_id: z.string().nullable(),
  /** Whether response times are counted in business hours: the organization has a schedule (else wall-clock time). */
  business_hours: z.boolean(),
  /**
   * One row per team member as the events name them: the sender of messages (the message's
   * performed_by: a console member's email, an API token's id) and the assignee of tickets; most messages sent first.
   */
  members: z.array(
    z.object({
      member: z.string(),
      /**
       * A name for people: the API token's name when `member` is a token id of the organization (revoked ones too),
       * resolved by the members service that owns tokens; null otherwise (a member's email names them already).
       */
      name: z.string().nullable(),
      /** Chats (each phone's copy) the member sent at least one message to in the period. */
      active_chats: z.number().int(),
      /** Outgoing messages of the period sent by the member (performed_by). */
      messages_sent: z.number().int(),
      /** First responses (of incoming messages of the period) sent by the member: median in ms, and how many. */
      first_response_ms: z.object({ median: z.number().nullable(), count: z.number().int() }),
      /** Next responses (answers in chats already answered before; incoming messages of the period) sent by the member. */
      next_response_ms: z.object({ median: z.number().nullable(), count: z.number().int() }),
      /** Tickets assigned to the member closed in the period. */
      tickets_closed: z.number().int(),
      /** Tickets assigned to the member unresolved now (open or in progress), raised before `to`. */
      tickets_unresolved: z.number().int(),
    }),
  ),
});
export type TeamMetricsResult = z.infer<typeof TeamMetricsResultSchema>;

export const TeamMetricsRpc = defineRpc({
  subject: 'analytics.v1.team.metrics',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, query: TeamMetricsQuery }),
  response: TeamMetricsResultSchema,
});
export type TeamMetricsRequest = z.infer<typeof TeamMetricsRpc.request>;

export const TeamMetricsRoute = defineRoute({
  operationId: 'getAnalyticsTeam',
  method: 'GET',
  path: '/analytics/team',
  tag: 'analytics',
  summary: 'Team metrics over a period',
  description:
    "Ours (issue 34): per team member as the events name them (the message sender, performed_by: a console member's email or " +
    "an API token's id, with the token's name in `name`, and the ticket assignee): the chats they sent to (active_chats) and messages sent in the period, " +
    'their first and next responses (median in ms, counted in the period of the incoming message, ' +
    'in business hours when the organization has a schedule), tickets ' +
    'assigned to them closed in the period and unresolved now. Messages whose sender is not recorded (performed_by null) count ' +
    `for no one (docs/services/analytics.md). \`from\` inclusive, \`to\` exclusive, widened to whole quarter hours; at most ${MAX_PERIOD_DAYS} days. ` +
    "x-phone or phone_id narrow to one phone (a phone outside the token's phones is 404). A console member gets the figures of " +
    'the chats within their reach.',
  query: TeamMetricsQuery,
  phone: 'optional',
  rpc: TeamMetricsRpc,
  csv: { filename: 'analytics-team.csv', table: teamCsv },
  successStatus: 200,
  response: TeamMetricsResultSchema,
});

/** GET /analytics/team: one row per member. */
export function teamCsv(answer: unknown): CsvCell[][] {
  const a = answer as TeamMetricsResult;
  return [
    [
      'member',
      'name',
      'messages_sent',
      'first_response_median_ms',
      'first_responses',
      'next_response_median_ms',
      'next_responses',
      'tickets_closed',
      'tickets_unresolved',
      'active_chats',
    ],
    ...a.members.map((m) => [
      m.member,
      m.name,
      m.messages_sent,
      m.first_response_ms.median,
      m.first_response_ms.count,
      m.next_response_ms.median,
      m.next_response_ms.count,
      m.tickets_closed,
      m.tickets_unresolved,
      m.active_chats,
    ]),
  ];
}
