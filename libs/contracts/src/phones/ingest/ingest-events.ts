import { z } from 'zod';
import { DeliveryInfoSchema, MediaSchema } from '../../chats/message/message.schema';

/**
 * What a phone's connector saw, on its way to the chats store through JetStream (stream <NS>_INGEST,
 * subject <ns>.ingest.<kind>). Shaped after Baileys' events (messages.upsert,
 * message-receipt.update, messages.update, chats.upsert, groups.upsert). The chats service
 * validates each event against these schemas; every handler is idempotent (redelivery is normal).
 */
const base = { org_id: z.uuid(), phone_id: z.string(), org_phone: z.string() };

export const IngestMessageSchema = z.object({
  chat_id: z.string(),
  unique_id: z.string(),
  from_me: z.boolean(),
  sender_phone: z.string(),
  /** The name the sender's phone gives (WhatsApp push name), for messages not sent by this phone; kept on the sender's contact. */
  sender_name: z.string().nullable().optional(),
  body: z.string().nullable(),
  message_type: z.string(),
  timestamp: z.string(),
  ack: z.number().int().min(-1).max(4),
  media: MediaSchema.nullable().optional(),
  author: z.string().nullable().optional(),
  is_forwarded: z.boolean().nullable().optional(),
  quoted_message_id: z.string().nullable().optional(),
  mentioned_ids: z.array(z.string()).optional(),
  sent_message_id: z.uuid().nullable().optional(),
  /**
   * Who sent it through this service (the send command's performed_by: a member's email or a token's id), stamped
   * by the phone's session on a message it sent; stored as the message's performed_by. Absent or null: not known.
   */
  performed_by: z.string().min(1).max(320).nullable().optional(),
});
export type IngestMessage = z.infer<typeof IngestMessageSchema>;

export const MessagesUpsertEvent = z.object({
  ...base,
  kind: z.literal('messages-upsert'),
  /** notify: live (emits message.created); append: history/resync backfill (no events). */
  type: z.enum(['notify', 'append']),
  messages: z.array(IngestMessageSchema),
});

export const ReceiptEvent = z.object({
  ...base,
  kind: z.literal('receipt'),
  chat_id: z.string(),
  unique_id: z.string(),
  from_me: z.boolean(),
  ack: z.number().int().min(-1).max(4),
  /** For group messages: the participant whose receipt this is, and when (epoch ms). */
  participant: z.string().optional(),
  at: z.number().optional(),
});

export const MessageEditEvent = z.object({
  ...base,
  kind: z.literal('edit'),
  chat_id: z.string(),
  unique_id: z.string(),
  from_me: z.boolean(),
  body: z.string(),
});

export const MessageDeleteEvent = z.object({
  ...base,
  kind: z.literal('delete'),
  chat_id: z.string(),
  unique_id: z.string(),
  from_me: z.boolean(),
});

export const ChatsUpsertEvent = z.object({
  ...base,
  kind: z.literal('chats-upsert'),
  chats: z.array(z.object({ chat_id: z.string(), chat_name: z.string().nullable(), chat_type: z.enum(['user', 'group', 'business']) })),
});

/** A group's settings, when the connector knows them (absent: unchanged). */
const groupSettingsFields = {
  description: z.string().nullable().optional(),
  announce: z.boolean().optional(),
  restrict: z.boolean().optional(),
  member_add_admins_only: z.boolean().optional(),
};
export const GroupParticipantSchema = z.object({ id: z.string(), admin: z.boolean(), super_admin: z.boolean().optional() });
export const GroupsUpsertEvent = z.object({
  ...base,
  kind: z.literal('groups-upsert'),
  groups: z.array(
    z.object({ chat_id: z.string(), subject: z.string(), participants: z.array(GroupParticipantSchema), ...groupSettingsFields }),
  ),
});

/** A reaction (emoji) by `sender_phone` to a message; `reaction` '' takes it back. */
export const ReactionEvent = z.object({
  ...base,
  kind: z.literal('reaction'),
  chat_id: z.string(),
  unique_id: z.string(),
  from_me: z.boolean(),
  reaction: z.object({ reaction_id: z.string(), sender_phone: z.string(), reaction: z.string(), timestamp: z.string() }),
});

/**
 * A message pinned in its chat (`pin: true`, until `expires_at`) or unpinned, as the network echoes
 * it (the phone's own pin through the API, or another participant's). `at` is when the pin was made:
 * a redelivered or older pin never overrides a newer one.
 */
export const PinEvent = z.object({
  ...base,
  kind: z.literal('pin'),
  chat_id: z.string(),
  unique_id: z.string(),
  from_me: z.boolean(),
  pin: z.boolean(),
  at: z.iso.datetime(),
  expires_at: z.iso.datetime().nullable(),
});

/** A poll's whole tally after a vote: each option with its voters (contact ids), in the poll's order. */
export const PollResultsEvent = z.object({
  ...base,
  kind: z.literal('poll-results'),
  chat_id: z.string(),
  unique_id: z.string(),
  from_me: z.boolean(),
  poll_results: z.array(z.object({ name: z.string(), voters: z.array(z.string()) })),
});

/**
 * Group notifications as the network reports them (joins, leaves, admin changes, subject and
 * settings changes). `id` is the network's own id of the notification: with the phone it makes the
 * stored notification idempotent (one stored row and one event per network notification).
 */
export const GroupNotificationSchema = z.object({
  chat_id: z.string(),
  id: z.string().min(1),
  /** add | remove | leave | invite | promote | demote | subject | description | announce | restrict | create */
  type: z.string(),
  /** contact id of who made the change; null when the network does not say */
  author: z.string().nullable(),
  /** contact ids the change was about */
  recipients: z.array(z.string()),
  /** the new subject / description, when the change is one */
  body: z.string().nullable(),
  timestamp: z.string(),
});
export type GroupNotification = z.infer<typeof GroupNotificationSchema>;
export const GroupNotificationsEvent = z.object({
  ...base,
  kind: z.literal('group-notifications'),
  notifications: z.array(GroupNotificationSchema),
});

export const IngestEventSchema = z.discriminatedUnion('kind', [
  MessagesUpsertEvent,
  ReceiptEvent,
  MessageEditEvent,
  MessageDeleteEvent,
  ChatsUpsertEvent,
  GroupsUpsertEvent,
  ReactionEvent,
  PollResultsEvent,
  GroupNotificationsEvent,
  PinEvent,
]);
export type IngestEvent = z.infer<typeof IngestEventSchema>;
export type IngestKind = IngestEvent['kind'];
/** Versioned ingest subject suffix: <ns>.ingest.v1.<kind> */
export const ingestKindSubject = (kind: IngestKind) => `v1.${kind}`;

export { DeliveryInfoSchema };
