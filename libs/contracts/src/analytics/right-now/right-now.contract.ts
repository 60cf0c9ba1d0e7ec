import type { CsvCell } from '../../http/define-route';
import { z } from 'zod';
import { intFromQuery } from '../../chats/paging/paging';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { PhoneIdFilter } from '../period/period';

export const MAX_NOW_LIMIT = 1000;

/** The lists of GET /analytics/now, and the unread chats' count; `lists` asks for some of them (default: all). */
export const NOW_LISTS = ['waiting', 'flagged', 'open_tickets', 'breaching', 'unread_chats'] as const;
export type NowList = (typeof NOW_LISTS)[number];
const listsMessage = `lists must name one or more of ${NOW_LISTS.join(', ')}, separated by commas`;

/**
 * `lists=breaching` or `lists=waiting,flagged` (a repeated parameter too): the lists to answer, the others left
 * out of the answer (not computed). Accepts its own output (an array), as the service validates the query again.
 */
const NowListsQuery = z
  .union([z.string(), z.array(z.string())], { error: listsMessage })
  .transform((v, ctx) => {
    const names = [...new Set((typeof v === 'string' ? [v] : v).flatMap((x) => x.split(',')).map((x) => x.trim()))].filter(Boolean);
    if (!names.length || names.some((n) => !(NOW_LISTS as readonly string[]).includes(n))) {
      ctx.addIssue({ code: 'custom', message: listsMessage });
      return z.NEVER;
    }
    return NOW_LISTS.filter((n) => names.includes(n));
  })
  // the documented (OpenAPI) shape: the names, in the answer's order
  .pipe(z.array(z.enum(NOW_LISTS)));

/** Ours (issue 34): how many chats each list holds (default 100), an optional phone, and which lists (default all). */
export const RightNowQuery = z.object({
  limit: intFromQuery('limit', 1, MAX_NOW_LIMIT).default(100),
  phone_id: PhoneIdFilter,
  lists: NowListsQuery.optional(),
});

/** A chat waiting for a response: the first unanswered incoming message, its timestamp and the wait so far. */
const WaitingChat = z.object({
  phone_id: z.string(),
  chat_id: z.string(),
  message_id: z.string(),
  waiting_since: z.string(),
  waiting_ms: z.number().int(),
});

/** Each list is there when asked for (`lists`; all of them by default). */
export const RightNowResultSchema = z.object({
  as_of: z.string(),
  /** Chats whose latest incoming messages are unanswered (no outgoing message since), longest waiting first. */
  waiting: z
    .object({
      count: z.number().int(),
      chats: z.array(WaitingChat),
    })
    .optional(),
  /** Chats with messages flagged now, most flagged first. */
  flagged: z
    .object({
      count: z.number().int(),
      chats: z.array(z.object({ phone_id: z.string(), chat_id: z.string(), flagged_messages: z.number().int() })),
    })
    .optional(),
  /** Unresolved tickets (open or in progress, not deleted), oldest first, with how long each has been open. */
  open_tickets: z
    .object({
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
    })
    .optional(),
  /**
   * Chats whose SLA wait is breaching now: a policy's deadline passed (sla.breached fired) and no reply since,
   * the earliest deadline first; one entry per chat copy, with every policy it breaches.
   */
  breaching: z
    .object({
      count: z.number().int(),
      chats: z.array(
        // message_id / waiting_since: the incoming message the earliest breached wait started with
        WaitingChat.extend({
          /** The earliest deadline passed, when the first breach fired, and how long ago that deadline was. */
          due_at: z.string(),
          breached_at: z.string(),
          overdue_ms: z.number().int(),
          policies: z.array(
            z.object({
              policy_id: z.string(),
              name: z.string(),
              kind: z.enum(['first_response', 'next_response']),
              minutes: z.number().int(),
            }),
          ),
        }),
      ),
    })
    .optional(),
  /**
   * Chat copies (phone, chat) with unread messages within the caller's reach, as the chats service counts them
   * (chats.v1.chat.count-unread): for a console session by the member's own read marks (decision 0091), for a
   * token the phones' unread_count. null when `lists` does not name `unread_chats` (not computed).
   */
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
  summary: 'Right now: chats waiting for a response, flagged chats, open tickets, chats breaching an SLA, unread chats',
  description:
    "Ours (issue 34): from the analytics service's per-chat state (fed from the event stream; docs/services/analytics.md): " +
    'the chats waiting for a response (an incoming message with no outgoing one since) with their waiting time, longest first; ' +
    'the chats with flagged messages; the unresolved tickets (oldest first); and the chats breaching an SLA policy now (its deadline ' +
    `passed and no reply since; the earliest deadline first); each list holds \`limit\` chats (default 100, at most ${MAX_NOW_LIMIT}) and counts them all. ` +
    "x-phone or phone_id narrow to one phone (a phone outside the token's phones is 404); a console member sees the chats within their reach. " +
    "`unread_chats`: the chats (each phone's copy) with unread messages within reach, asked of the chats service (a console " +
    "session counts by its own read marks, a token by the phones' unread counts). " +
    '`lists` (e.g. `lists=breaching`) answers only those lists, `unread_chats` among them (the console chat list reads only the ' +
    'breaching chats); `unread_chats` is then null unless named.',
  query: RightNowQuery,
  phone: 'optional',
  rpc: RightNowRpc,
  csv: { filename: 'analytics-now.csv', table: nowCsv },
  successStatus: 200,
  response: RightNowResultSchema,
});

/** GET /analytics/now: one row per listed chat or ticket (`list` waiting, flagged, open_ticket or breaching). */
export function nowCsv(answer: unknown): CsvCell[][] {
  const a = answer as RightNowResult;
  const none = [null, null, null, null, null] as const;
  const noBreach = [null, null, null, null] as const;
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
      'due_at',
      'breached_at',
      'overdue_ms',
      'policies',
    ],
    ...(a.waiting?.chats ?? []).map((c) => [
      'waiting',
      c.phone_id,
      c.chat_id,
      c.message_id,
      c.waiting_since,
      c.waiting_ms,
      null,
      ...none,
      ...noBreach,
    ]),
    ...(a.flagged?.chats ?? []).map((c) => ['flagged', c.phone_id, c.chat_id, null, null, null, c.flagged_messages, ...none, ...noBreach]),
    ...(a.open_tickets?.tickets ?? []).map((t) => [
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
      ...noBreach,
    ]),
    ...(a.breaching?.chats ?? []).map((c) => [
      'breaching',
      c.phone_id,
      c.chat_id,
      c.message_id,
      c.waiting_since,
      c.waiting_ms,
      null,
      ...none,
      c.due_at,
      c.breached_at,
      c.overdue_ms,
      c.policies.map((p) => p.name).join('; '),
    ]),
  ];
}
