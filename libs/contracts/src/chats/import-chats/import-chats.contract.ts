import { z } from 'zod';
import { importBatchRpc, importItemFields } from '../../imports/import-batch';

const pinSchema = z.object({ message_id: z.string().min(1).max(500), pinned_at: z.number(), expires_at: z.number().nullable().optional() });

/**
 * The chat object as the source's GET /chats answers it (ChatType), read leniently: only what the
 * chats service keeps is looked at (name, type, group settings and participants, pins, unread counts, creation time).
 */
export const ImportChatObjectSchema = z.object({
  chat_id: z.string().min(1).max(300),
  chat_name: z.string().max(1000).nullable().optional(),
  chat_type: z.string().max(50).nullable().optional(),
  created_at: z.string().max(100).nullable().optional(),
  group_description: z.string().max(10_000).nullable().optional(),
  info_admins_only: z.boolean().nullable().optional(),
  messages_admins_only: z.boolean().nullable().optional(),
  add_members_admins_only: z.boolean().nullable().optional(),
  pinned_messages: z.array(pinSchema).max(1000).nullable().optional(),
  /** A group's participants (ChatMemberType, by contact id): the flags are kept per phone copy. */
  members: z
    .record(
      z.string(),
      z.object({
        contact_id: z.string().min(1).max(300),
        is_admin: z.boolean().nullable().optional(),
        is_super_admin: z.boolean().nullable().optional(),
      }),
    )
    .refine((m) => Object.keys(m).length <= 5000, 'at most 5000 members')
    .nullable()
    .optional(),
  /** Per phone number (org_phone): unread inbound messages. */
  unread_count: z.unknown().optional(),
});

export const ImportChatItemSchema = z.object({
  ...importItemFields,
  /** The target phones that hold the chat, with their numbers (`<digits>@c.us`, null when not known yet). */
  phones: z
    .array(z.object({ phone_id: z.string().min(1).max(200), org_phone: z.string().max(100).nullable().optional() }))
    .min(1)
    .max(100),
  chat: ImportChatObjectSchema,
  /** Target label ids (the importer translated them) with the label's name. */
  labels: z
    .array(z.object({ label_id: z.uuid(), name: z.string().min(1).max(100) }))
    .max(500)
    .optional(),
  /** Target property id → value; replaces the chat's values when given. */
  custom_properties: z.record(z.string().min(1).max(100), z.string().max(10_000)).nullable().optional(),
  /** The assignee (an email); null clears; absent leaves it. */
  assigned_to: z.string().max(320).nullable().optional(),
});
export type ImportChatItem = z.infer<typeof ImportChatItemSchema>;

/**
 * Internal (the importer, docs/services/chats.md "Import"): writes each phone's copy of a chat and
 * the organization's values on it (labels, custom properties, assignee). No chat events (a backfill).
 */
export const ImportChatsRpc = importBatchRpc('chats.v1.import.chats', 'chats');
export type ImportChatsRequest = z.infer<typeof ImportChatsRpc.request>;
