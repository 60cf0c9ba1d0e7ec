import { z } from 'zod';

/** The columns an imported message fills, named as the spec 2.1 object names its fields. */
export const MESSAGE_FIELDS = [
  'chat_id', 'message_id', 'unique_id', 'sender_phone', 'from_me', 'body', 'prev_body', 'message_type', 'timestamp', 'ack',
  'delivery_info', 'mentioned_ids', 'media', 'fts', 'broadcast', 'sent_message_id', 'author', 'broadcast_id', 'device_type',
  'duration', 'flag_metadata', 'flag_response_time', 'flag_status', 'forwarding_score', 'from', 'has_media', 'has_quoted_msg',
  'has_reaction', 'interactive', 'invite_v4', 'is_deleted', 'is_ephemeral', 'is_forwarded', 'is_gif', 'is_starred', 'is_status',
  'links', 'location', 'media_key', 'message_ticket_id', 'order_id', 'performed_by', 'poll_info', 'poll_results',
  'quoted_message_id', 'raw_data', 'to', 'token', 'vcards',
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a message must carry to be stored; the rest is taken as it comes (null when absent). */
const Required = z.object({
  message_id: z.string().min(1).max(512),
  unique_id: z.string().min(1).max(300),
  chat_id: z.string().min(1).max(300).refine((c) => /@(c|g)\.us$/.test(c) || /^[0-9]+$/.test(c), 'chat_id must be a chat id (…@c.us or …@g.us)'),
  sender_phone: z.string().max(300),
  from_me: z.boolean(),
  message_type: z.string().min(1).max(100),
  timestamp: z.string().refine((t) => Number.isFinite(Date.parse(t)), 'timestamp must be an ISO 8601 date-time'),
  ack: z.union([z.string().regex(/^-?[0-4]$/), z.number().int().min(-1).max(4)]),
});

/** A source message as a row of ours on `phone`, or why it cannot be one. */
export function messageRowOf(
  orgId: string,
  phone: { phone_id: string; org_phone: string },
  message: Record<string, unknown>,
): { row: Record<string, unknown> } | { reason: string } {
  const parsed = Required.safeParse(message);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { reason: `${issue.path.join('.') || 'message'}: ${issue.message}` };
  }
  const row: Record<string, unknown> = { org_id: orgId, phone_id: phone.phone_id, org_phone: phone.org_phone };
  for (const f of MESSAGE_FIELDS) row[f] = message[f] ?? null;
  row.ack = Number(parsed.data.ack);
  row.timestamp = new Date(parsed.data.timestamp).toISOString();
  row.mentioned_ids = Array.isArray(message.mentioned_ids) ? message.mentioned_ids.filter((m) => typeof m === 'string') : [];
  row.delivery_info = message.delivery_info ?? { delivered_count: 0, read_count: 0, pending: [] };
  if (typeof row.sent_message_id !== 'string' || !UUID.test(row.sent_message_id)) row.sent_message_id = null;
  if (typeof row.flag_response_time === 'string') row.flag_response_time = null;
  return { row };
}
