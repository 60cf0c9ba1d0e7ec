import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRpc } from '../../rpc/define-rpc';
import { ChatCopySchema } from '../chat-properties/chat-properties.contract';

/**
 * Internal (no public routes): what the analytics service asks of the chats service, which owns the
 * chats, their unread counts, read marks and labels (docs/services/analytics.md, "unread_chats" and
 * "Figures by label"). Analytics never reads the chats' tables itself.
 */

/**
 * How many chat copies (phone, chat) within the caller's reach have unread messages: for a console
 * session by the member's read marks (decision 0091: inbound messages after their mark, the copy's
 * unread_count without one), for a bearer token the copy's unread_count. `phone_id` narrows to one
 * phone (checked by the caller against the ctx's phones). The same predicate as GET /chats?unread=true.
 */
export const CountUnreadChatsRpc = defineRpc({
  subject: 'chats.v1.chat.count-unread',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ phone_id: z.string().min(1).max(200).optional() }) }),
  response: z.object({ count: z.number().int() }),
});
export type CountUnreadChatsRequest = z.infer<typeof CountUnreadChatsRpc.request>;

/** A label as GET /chats?label= takes it: its name (any case) or its label_id. */
export const ChatLabelFilterSchema = z.string().trim().min(1, 'label must not be empty').max(100, 'label is at most 100 characters');

/**
 * Of the given (phone, chat) copies, those held, within the caller's reach (for a member their labels
 * and overrides too) and carrying the label (by name, any case, or id), as GET /chats?label= matches it.
 */
export const ChatCopiesWithLabelRpc = defineRpc({
  subject: 'chats.v1.chat.copies-with-label',
  service: 'chats',
  request: z.object({
    ctx: RequestContextSchema,
    body: z.object({ copies: z.array(ChatCopySchema).min(1).max(1000), label: ChatLabelFilterSchema }),
  }),
  response: z.object({ labelled: z.array(ChatCopySchema) }),
});
export type ChatCopiesWithLabelRequest = z.infer<typeof ChatCopiesWithLabelRpc.request>;
