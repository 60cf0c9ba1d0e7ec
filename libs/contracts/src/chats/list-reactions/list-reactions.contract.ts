import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { ReactionSchema } from '../../events/reaction/reaction.schema';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MAX_PAGE_LIMIT, pageFields, refineTimeRange, timeRangeFields } from '../paging/paging';

export const ListReactionsQuery = z
  .object({
    ...pageFields,
    ...timeRangeFields,
    chat_id: ChatIdSchema.optional(),
    message_id: z.string().min(1, 'message_id must not be empty').max(512, 'message_id is too long').optional(),
  })
  .superRefine(refineTimeRange);

export const ListReactionsResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  /** The bounds applied (ISO 8601), null when not given. */
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  reactions: z.array(ReactionSchema),
});
export type ListReactionsResponse = z.infer<typeof ListReactionsResponse>;

export const ListReactionsRpc = defineRpc({
  subject: 'chats.v1.reactions.list',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, query: ListReactionsQuery }),
  response: ListReactionsResponse,
});
export type ListReactionsRequest = z.infer<typeof ListReactionsRpc.request>;

export const ListReactionsRoute = defineRoute({
  operationId: 'getReactions',
  method: 'GET',
  path: '/reactions',
  tag: 'reactions',
  summary: 'List the reactions that stand, newest first',
  description:
    "Reactions to the messages of the chats within reach (the x-phone phone, or the token's phones), newest first; " +
    'chat_id and message_id narrow them, start_time/end_time (inclusive) bound when they were made. A reaction its sender ' +
    `took back is not listed. limit defaults to ${MAX_PAGE_LIMIT}, its maximum (inclusive).`,
  query: ListReactionsQuery,
  phone: 'optional',
  rpc: ListReactionsRpc,
  successStatus: 200,
  response: ListReactionsResponse,
});
