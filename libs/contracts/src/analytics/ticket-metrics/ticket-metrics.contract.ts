import type { CsvCell } from '../../http/define-route';
import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MAX_PERIOD_DAYS, PeriodFields, PhoneIdFilter, refinePeriod } from '../period/period';

/** Ours (issue 34): the period (from, to, tz validated as GET /analytics/messages does) and an optional phone. */
export const TicketMetricsQuery = z
  .object({ from: PeriodFields.from, to: PeriodFields.to, tz: PeriodFields.tz, phone_id: PhoneIdFilter })
  .superRefine(refinePeriod);

/** A median (continuous, percentile_cont) in milliseconds and the number of samples; null without any. */
export const MedianSchema = z.object({ median: z.number().nullable(), count: z.number().int() });

const ticketCounts = {
  /** Tickets not closed now (open + in_progress), raised before `to`. */
  unresolved: z.number().int(),
  /** Tickets whose status is `open` now, raised before `to`. */
  open: z.number().int(),
  /** Tickets whose status is `inprogress` now, raised before `to`. */
  in_progress: z.number().int(),
  /** Tickets raised in the period. */
  created: z.number().int(),
  /** Tickets closed (closed_at) in the period and closed now. */
  closed: z.number().int(),
  /** first_assigned_at − created_at of the tickets raised in the period and assigned since. */
  time_to_first_assignment_ms: MedianSchema,
  /** closed_at − created_at of the tickets closed in the period. */
  time_to_close_ms: MedianSchema,
};

export const TicketMetricsResultSchema = z.object({
  /** The period counted: from and to widened to whole quarter hours, UTC. */
  from: z.string(),
  to: z.string(),
  tz: z.string(),
  phone_id: z.string().nullable(),
  totals: z.object(ticketCounts),
  /** One row per assignee (as the tickets name them; null: unassigned), most unresolved first. */
  by_assignee: z.array(z.object({ assignee: z.string().nullable(), ...ticketCounts })),
});
export type TicketMetricsResult = z.infer<typeof TicketMetricsResultSchema>;

export const TicketMetricsRpc = defineRpc({
  subject: 'analytics.v1.tickets.metrics',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, query: TicketMetricsQuery }),
  response: TicketMetricsResultSchema,
});
export type TicketMetricsRequest = z.infer<typeof TicketMetricsRpc.request>;

export const TicketMetricsRoute = defineRoute({
  operationId: 'getAnalyticsTickets',
  method: 'GET',
  path: '/analytics/tickets',
  tag: 'analytics',
  summary: 'Ticket metrics over a period',
  description:
    "Ours (issue 34): from the analytics service's per-ticket state (fed from the ticket.* events; docs/services/analytics.md): " +
    'unresolved, open and in progress tickets now (raised before `to`), tickets raised and closed in the period, the median time ' +
    'to first assignment (of the tickets raised in the period) and to close (of those closed in it), in total and per assignee. ' +
    `\`from\` is inclusive, \`to\` exclusive, both widened to whole quarter hours; at most ${MAX_PERIOD_DAYS} days. x-phone or phone_id ` +
    "narrow to one phone (a phone outside the token's phones is 404). A console member gets the figures of the tickets of the chats " +
    'within their reach.',
  query: TicketMetricsQuery,
  phone: 'optional',
  rpc: TicketMetricsRpc,
  csv: { filename: 'analytics-tickets.csv', table: ticketsCsv },
  successStatus: 200,
  response: TicketMetricsResultSchema,
});

type TicketCounts = TicketMetricsResult['totals'];
const ticketCells = (c: TicketCounts): CsvCell[] => [
  c.unresolved,
  c.open,
  c.in_progress,
  c.created,
  c.closed,
  c.time_to_first_assignment_ms.median,
  c.time_to_first_assignment_ms.count,
  c.time_to_close_ms.median,
  c.time_to_close_ms.count,
];

/** GET /analytics/tickets: one row per assignee (`scope` assignee; empty: unassigned), then the totals (`scope` total). */
export function ticketsCsv(answer: unknown): CsvCell[][] {
  const a = answer as TicketMetricsResult;
  return [
    [
      'scope',
      'assignee',
      'unresolved',
      'open',
      'in_progress',
      'created',
      'closed',
      'time_to_first_assignment_median_ms',
      'first_assignments',
      'time_to_close_median_ms',
      'closes',
    ],
    ...a.by_assignee.map((r) => ['assignee', r.assignee, ...ticketCells(r)]),
    ['total', null, ...ticketCells(a.totals)],
  ];
}
