import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * Internal (no public routes): what the inbox service, which owns the label and custom property
 * definitions, asks of the chats service, which owns the values per (org_id, chat_id)
 * (`chat_properties`, `chat_labels`). docs/services/chats.md, "Chat properties".
 */

const ChatIds = z.array(ChatIdSchema).min(1).max(1000);

/**
 * Which of the given chats no phone within the caller's reach has (missing, another organization's;
 * for a member's ctx, outside their labels and overrides too: docs/services/members.md). `to_send`:
 * answer for a send, where a member who sees every label (labels null) may also start a chat that no
 * phone of theirs holds yet, unless an override denies it to them.
 */
export const ChatsInReachRpc = defineRpc({
  subject: 'chats.v1.chat.in-reach',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ chat_ids: ChatIds, to_send: z.boolean().optional() }) }),
  response: z.object({ missing: z.array(z.string()) }),
});
export type ChatsInReachRequest = z.infer<typeof ChatsInReachRpc.request>;

export const ChatCopySchema = z.object({ phone_id: z.string().min(1).max(200), chat_id: z.string().min(1).max(300) });
export type ChatCopy = z.infer<typeof ChatCopySchema>;

/**
 * Which of the given (phone, chat) copies are within the caller's reach: held by that phone, the
 * phone within reach, and for a member's ctx within their labels and overrides. One call per page of
 * another service's rows tied to chats (the inbox's tickets, notes, tasks) or per batch of realtime
 * events; callers skip it for a ctx that is not a member's (phones only, checked on their side).
 */
export const ChatCopiesInReachRpc = defineRpc({
  subject: 'chats.v1.chat.copies-in-reach',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ copies: z.array(ChatCopySchema).min(1).max(1000) }) }),
  response: z.object({ reached: z.array(ChatCopySchema) }),
});
export type ChatCopiesInReachRequest = z.infer<typeof ChatCopiesInReachRpc.request>;

export const ChatLabelRefSchema = z.object({ label_id: z.uuid(), name: z.string().min(1).max(100) });

/**
 * Sets what is given on every chat named, all or nothing (404 when any is out of reach), and writes
 * chat.label.updated / chat.custom_properties.updated for each chat where they changed, in one
 * transaction. `labels` replaces the chat's labels; `custom_properties` merges (null removes a key,
 * keyed by property id); `assigned_to` replaces (null clears). Access overrides have their own,
 * checked RPC (set-access).
 */
export const SetChatPropertiesRpc = defineRpc({
  subject: 'chats.v1.chat.set-properties',
  service: 'chats',
  request: z.object({
    ctx: RequestContextSchema,
    body: z.object({
      chat_ids: ChatIds,
      labels: z.array(ChatLabelRefSchema).max(500).optional(),
      custom_properties: z.record(z.string(), z.string().nullable()).optional(),
      assigned_to: z.string().max(320).nullable().optional(),
    }),
  }),
  response: z.object({ updated: z.number().int() }),
});
export type SetChatPropertiesRequest = z.infer<typeof SetChatPropertiesRpc.request>;

/**
 * Sets per-member overrides of chat access (`override_chat_access`, {email: true | false}) on every
 * chat named, all or nothing like set-properties (404 when any is out of reach). `replace`: the
 * chat's overrides become `access` (empty: none); otherwise `access` is merged into them. Called by
 * the members service (PATCH /chats/access) once it has checked that every email is a member.
 */
export const SetChatAccessRpc = defineRpc({
  subject: 'chats.v1.chat.set-access',
  service: 'chats',
  request: z.object({
    ctx: RequestContextSchema,
    body: z.object({ chat_ids: ChatIds, access: z.record(z.string().max(320), z.boolean()), replace: z.boolean() }),
  }),
  response: z.object({ updated: z.number().int() }),
});
export type SetChatAccessRequest = z.infer<typeof SetChatAccessRpc.request>;

/** Removes one custom property's value from every chat of the organization (its definition was deleted). */
export const DropCustomPropertyRpc = defineRpc({
  subject: 'chats.v1.chat.drop-custom-property',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ property_id: z.string().min(1).max(100) }) }),
  response: z.object({ updated: z.number().int() }),
});
export type DropCustomPropertyRequest = z.infer<typeof DropCustomPropertyRpc.request>;

const LabelCopyBody = z.object({
  label_id: z.uuid(),
  /** chat: chat_labels, by id; contact: contacts.labels, by name (contacts keep names); ticket: nothing here. */
  type: z.enum(['chat', 'ticket', 'contact']),
  /** The label's lower-case name as the copies hold it. */
  name: z.string().min(1).max(100),
});

/**
 * The inbox renamed a label of its catalogue: every copy of the organization follows (chat_labels'
 * label_name by label_id, for the GET /chats?label= filter; a contact label's name in contacts.labels).
 * Idempotent, so a retried rename finishes the job. No event (the chats' label_ids do not change).
 */
export const RenameLabelCopiesRpc = defineRpc({
  subject: 'chats.v1.chat.rename-label',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, body: LabelCopyBody.extend({ new_name: z.string().min(1).max(100) }) }),
  response: z.object({ updated: z.number().int() }),
});
export type RenameLabelCopiesRequest = z.infer<typeof RenameLabelCopiesRpc.request>;

/** The inbox is deleting a label: every chat / contact of the organization loses it (no per-chat event). */
export const DropLabelCopiesRpc = defineRpc({
  subject: 'chats.v1.chat.drop-label',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, body: LabelCopyBody }),
  response: z.object({ updated: z.number().int() }),
});
export type DropLabelCopiesRequest = z.infer<typeof DropLabelCopiesRpc.request>;
