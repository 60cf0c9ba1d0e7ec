import type { CsvCell } from '../../http/define-route';
import { z } from 'zod';
import { intFromQuery } from '../../chats/paging/paging';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { PhoneIdFilter } from '../period/period';

export const MAX_NOW_LIMIT = 1000;

/** Ours (issue 34): how many chats each list holds (default 100), and an optional phone. */
export const RightNowQuery = z.object({
  limit: intFromQuery('limit', 1, MAX_NOW_LIMIT).default(100),
  phone_id: PhoneIdFilter,
});

export const RightNowResultSchema = z.object({
  as_of: z.string(),
  /** Chats whose latest incoming messages are unanswered (no outgoing message since), longest waiting first. */
  waiting: z.object({
    count: z.number().int(),
    chats: z.array(
      z.object({
        phone_id: z.string(),
        chat_id: z.string(),
        /** The first unanswered incoming message and its timestamp. */
        message_id: z.string(),
        waiting_since: z.string(),
        waiting_ms: z.number().int(),
      }),
    ),
  }),
  /** Chats with messages flagged now, most flagged first. */
  flagged: z.object({
    count: z.number().int(),
    chats: z.array(z.object({ phone_id: z.string(), chat_id: z.string(), flagged_messages: z.number().int() })),
  }),
  /** Unresolved tickets (open or in progress, not deleted), oldest first, with how long each has been open. */
  open_tickets: z.object({
    count: z.number().int(),
    tickets: z.array(
      z.object({
        ticket_id: z.string(),
        phone_id: z.string(),
        chat_id: z.string(),
        status: z.enum(['open', 'inprogress']),
        assignee: z.string().nullable(),
        created_at: z.string(),
        open_ms: z.number().int(),
      }),
    ),
  }),
  /** Chats with unread messages: null, not derivable from the event stream yet (read marks emit no event). */
  unread_chats: z.number().int().nullable(),
});
export type RightNowResult = z.infer<typeof RightNowResultSchema>;

export const RightNowRpc = defineRpc({
  subject: 'analytics.v1.now.get',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, query: RightNowQuery }),
  response: RightNowResultSchema,
});
export type RightNowRequest = z.infer<typeof RightNowRpc.request>;

export const RightNowRoute = defineRoute({
  operationId: 'getAnalyticsNow',
  method: 'GET',
  path: '/analytics/now',
  tag: 'analytics',
  summary: 'Right now: chats waiting for a response, flagged chats, open tickets',
  description:
    "Ours (issue 34): from the analytics service's per-chat state (fed from the event stream; docs/services/analytics.md): " +
    'the chats waiting for a response (an incoming message with no outgoing one since) with their waiting time, longest first, and ' +
    `the chats with flagged messages; each list holds \`limit\` chats (default 100, at most ${MAX_NOW_LIMIT}) and counts them all. ` +
    "x-phone or phone_id narrow to one phone (a phone outside the token's phones is 404); a console member sees the chats within their reach. " +
    '`unread_chats` is null: read marks emit no event yet.',
  query: RightNowQuery,
  phone: 'optional',
  rpc: RightNowRpc,
  csv: { filename: 'analytics-now.csv', table: nowCsv },
  successStatus: 200,
  response: RightNowResultSchema,
});

/** GET /analytics/now: one row per listed chat or ticket (`list` waiting, flagged or open_ticket). */
export function nowCsv(answer: unknown): CsvCell[][] {
  const a = answer as RightNowResult;
  const none = [null, null, null, null, null] as const;
  return [
    [
      'list',
      'phone_id',
      'chat_id',
      'message_id',
      'waiting_since',
      'waiting_ms',
      'flagged_messages',
      'ticket_id',
      'status',
      'assignee',
      'created_at',
      'open_ms',
    ],
    ...a.waiting.chats.map((c) => ['waiting', c.phone_id, c.chat_id, c.message_id, c.waiting_since, c.waiting_ms, null, ...none]),
    ...a.flagged.chats.map((c) => ['flagged', c.phone_id, c.chat_id, null, null, null, c.flagged_messages, ...none]),
    ...a.open_tickets.tickets.map((t) => [
      'open_ticket',
      t.phone_id,
      t.chat_id,
      null,
      null,
      null,
      null,
      t.ticket_id,
      t.status,
      t.assignee,
      t.created_at,
      t.open_ms,
    ]),
  ];
}
