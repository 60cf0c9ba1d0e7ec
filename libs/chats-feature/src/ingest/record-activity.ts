import type { Prisma } from '@mapi/db';
import type { PhoneMessageRow } from '../rows/message-row';

type Tx = Prisma.TransactionClient;
/** What the activity of a new message reads of its row. */
export type ActivityRow = Pick<PhoneMessageRow, 'phone_id' | 'chat_id' | 'message_id' | 'timestamp' | 'from_me'>;

/** What a batch's new messages change on one phone's copy of a chat. */
export interface ChatActivity {
  phone_id: string;
  chat_id: string;
  /** The batch's newest message of the chat (timestamp, then arrival) and its timestamp. */
  message_id: string;
  ts: string;
  /** Live inbound messages to add to the unread count ... */
  unread_add: number;
  /** ... or, when a live message was sent from the phone (which reads the chat), the unread count after it. */
  unread_reset: number | null;
}

/**
 * Folds a batch's new messages per (phone, chat), in arrival order. Only live messages (`notify`:
 * not history) touch the unread count: an inbound one adds 1, one sent from the phone reads the
 * chat (the count restarts after it). Pure, so it is unit-tested.
 */
export function foldActivity(created: readonly ActivityRow[], isLive: (row: ActivityRow) => boolean): ChatActivity[] {
  const byChat = new Map<string, ChatActivity & { at: number }>();
  for (const row of created) {
    const key = `${row.phone_id}\u0000${row.chat_id}`;
    const at = row.timestamp.getTime();
    let a = byChat.get(key);
    if (!a) {
      a = {
        phone_id: row.phone_id,
        chat_id: row.chat_id,
        message_id: row.message_id,
        ts: row.timestamp.toISOString(),
        at,
        unread_add: 0,
        unread_reset: null,
      };
      byChat.set(key, a);
    } else if (at >= a.at) {
      Object.assign(a, { message_id: row.message_id, ts: row.timestamp.toISOString(), at });
    }
    if (!isLive(row)) continue;
    if (row.from_me) a.unread_reset = 0;
    else if (a.unread_reset !== null) a.unread_reset++;
    else a.unread_add++;
  }
  return [...byChat.values()].map(({ at: _at, ...a }) => a);
}

// One statement per batch: the newest message moves only forward ((timestamp, id) order, as the
// pages are sorted); the message's surrogate key is read through the (phone_id, message_id) index.
const RECORD_ACTIVITY = `UPDATE chats c SET
    latest_message_id = CASE WHEN c.latest_message_at IS NULL OR (x.ts, m.id) > (c.latest_message_at, c.latest_message_id) THEN m.id ELSE c.latest_message_id END,
    latest_message_at = GREATEST(c.latest_message_at, x.ts),
    activity_at = CASE WHEN c.latest_message_at IS NULL THEN x.ts ELSE GREATEST(c.latest_message_at, x.ts) END,
    unread_count = COALESCE(x.unread_reset, c.unread_count + x.unread_add)
  FROM jsonb_to_recordset($1::jsonb) AS x(phone_id text, chat_id text, message_id text, ts timestamptz, unread_add int, unread_reset int)
  JOIN messages m ON m.phone_id = x.phone_id AND m.message_id = x.message_id
  WHERE c.phone_id = x.phone_id AND c.chat_id = x.chat_id`;

/** Keeps each touched chat's latest message, activity time and unread count up to date with a batch's new messages. */
export async function recordActivity(tx: Tx, created: readonly ActivityRow[], isLive: (row: ActivityRow) => boolean): Promise<void> {
  const activity = foldActivity(created, isLive);
  if (activity.length) await tx.$executeRawUnsafe(RECORD_ACTIVITY, JSON.stringify(activity));
}
