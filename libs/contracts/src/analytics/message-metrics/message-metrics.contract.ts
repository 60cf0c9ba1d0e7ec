import type { CsvCell } from '../../http/define-route';
import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ChatLabelFilterSchema } from '../../chats/chat-counts/chat-counts.contract';
import { MAX_HOURLY_PERIOD_DAYS, MAX_PERIOD_DAYS, PeriodFields, PhoneIdFilter, refinePeriod } from '../period/period';

/**
 * Ours (issue 34): the period, its time zone and series interval, an optional phone, and an optional chat label
 * (its name, any case, or label_id, as GET /chats?label= takes it): the figures of the chats carrying it.
 */
export const MessageMetricsQuery = z
  .object({ ...PeriodFields, phone_id: PhoneIdFilter, label: ChatLabelFilterSchema.optional() })
  .superRefine(refinePeriod);

/**
 * Median and 90th percentile (continuous) of the response times (first or next) of a period, in milliseconds; null
 * without any. In business hours when the organization has a schedule (docs/services/analytics.md, "Response times").
 */
export const FirstResponseSchema = z.object({
  median: z.number().nullable(),
  p90: z.number().nullable(),
  count: z.number().int(),
});

const counts = {
  active_chats: z.number().int(),
  incoming: z.number().int(),
  outgoing: z.number().int(),
  flagged: z.number().int(),
};

export const MessageMetricsResultSchema = z.object({
  /** The period counted: from and to widened to whole quarter hours, UTC. */
  from: z.string(),
  to: z.string(),
  tz: z.string(),
  interval: z.enum(['day', 'hour']),
  phone_id: z.string().nullable(),
  /** The label the figures are narrowed to, as asked (null: every chat). */
  label: z.string().nullable(),
  /** Whether response times are counted in business hours: the organization has a schedule (else wall-clock time). */
  business_hours: z.boolean(),
  totals: z.object({ ...counts, first_response_ms: FirstResponseSchema, next_response_ms: FirstResponseSchema }),
  /** One bucket per local day (or hour) of the period, oldest first, empty ones included. */
  series: z.array(
    z.object({
      /** The bucket's local start with its offset, e.g. 2026-11-01T00:00:00+01:00. */
      bucket: z.string(),
      ...counts,
      first_responses: z.number().int(),
      first_response_median_ms: z.number().nullable(),
      next_responses: z.number().int(),
      next_response_median_ms: z.number().nullable(),
    }),
  ),
});
export type MessageMetricsResult = z.infer<typeof MessageMetricsResultSchema>;

export const MessageMetricsRpc = defineRpc({
  subject: 'analytics.v1.messages.metrics',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, query: MessageMetricsQuery }),
  response: MessageMetricsResultSchema,
});
export type MessageMetricsRequest = z.infer<typeof MessageMetricsRpc.request>;

export const MessageMetricsRoute = defineRoute({
  operationId: 'getAnalyticsMessages',
  method: 'GET',
  path: '/analytics/messages',
  tag: 'analytics',
  summary: 'Message metrics over a period',
  description:
    'Ours (issue 34): active chats (with a message in the period), incoming, outgoing and flagged messages (flagged now), ' +
    'first and next response times (a response is the first outgoing message after an unanswered incoming one; a first response ' +
    'answers a chat that had never been answered, a next response one that had; median and p90 in ms, counted in the period of ' +
    'the incoming message, in business hours when the organization has a schedule: `business_hours`), in total and per local ' +
    "day or hour of `tz`, from the analytics service's " +
    'aggregates (fed from the event stream; docs/services/analytics.md). `from` is inclusive, `to` exclusive, both widened to whole ' +
    `quarter hours; at most ${MAX_PERIOD_DAYS} days (${MAX_HOURLY_PERIOD_DAYS} with interval=hour). x-phone or phone_id narrow to one phone ` +
    "(a phone outside the token's phones is 404). `label` (a chat label's name, any case, or its id) counts only the chats carrying " +
    "that label (a label no chat carries: zeros). A console member gets the figures of the period's chats within their reach; " +
    'with a label or for a member, at most 20,000 chats in the period (else 422 on `to`: a shorter period or one phone).',
  query: MessageMetricsQuery,
  phone: 'optional',
  rpc: MessageMetricsRpc,
  csv: { filename: 'analytics-messages.csv', table: messagesCsv },
  successStatus: 200,
  response: MessageMetricsResultSchema,
});

/** GET /analytics/messages: the series, one row per bucket, then the period's totals (bucket `total`). */
export function messagesCsv(answer: unknown): CsvCell[][] {
  const a = answer as MessageMetricsResult;
  const t = a.totals;
  return [
    [
      'bucket',
      'active_chats',
      'incoming',
      'outgoing',
      'flagged',
      'first_responses',
      'first_response_median_ms',
      'first_response_p90_ms',
      'next_responses',
      'next_response_median_ms',
      'next_response_p90_ms',
    ],
    ...a.series.map((s) => [
      s.bucket,
      s.active_chats,
      s.incoming,
      s.outgoing,
      s.flagged,
      s.first_responses,
      s.first_response_median_ms,
      null,
      s.next_responses,
      s.next_response_median_ms,
      null,
    ]),
    [
      'total',
      t.active_chats,
      t.incoming,
      t.outgoing,
      t.flagged,
      t.first_response_ms.count,
      t.first_response_ms.median,
      t.first_response_ms.p90,
      t.next_response_ms.count,
      t.next_response_ms.median,
      t.next_response_ms.p90,
    ],
  ];
}
