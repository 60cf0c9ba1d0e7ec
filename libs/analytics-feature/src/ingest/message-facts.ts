import { SLOT_MS } from '@mapi/contracts';

/**
 * What the analytics service keeps of one message copy: whichever event brought it (or the rebuild,
 * from the stored messages), the same fact.
 */
export interface MessageFact {
  org_id: string;
  phone_id: string;
  chat_id: string;
  message_id: string;
  /** The message's own timestamp (epoch ms): its slot, and its place in the chat's order. */
  at: number;
  from_me: boolean;
  /** Flagged now, as of `version`. */
  flagged: boolean;
  /** When that flag state held (epoch ms): the event's created_at; an older state never replaces a newer one. */
  version: number;
  /**
   * Who sent it (the message's performed_by): for a send through the API or the console the sending member's email or the
   * token's id (docs/services/queue.md "Sender"), for an import what the source named; null or absent: not known (a
   * message typed on the phone, received, or sent by a workflow).
   */
  performed_by?: string | null;
}

/** The events that count a message (each carries the whole message, spec 2.1). */
export const COUNTED_EVENTS = ['message.created', 'message.flagged', 'message.unflagged'] as const;

/** Status updates (stories) are not conversations: never counted. */
export const isStatusChat = (chatId: string) => chatId === 'status@broadcast';

/** The 15-minute slot (UTC start, epoch ms) of a timestamp. */
export const slotOf = (at: number) => Math.floor(at / SLOT_MS) * SLOT_MS;

interface EventLike {
  event_type: string;
  org_id: string;
  phone_id: string | null;
  created_at: string;
  data: unknown;
}

/** The fact an event carries, or null for an event that counts nothing (another type, a status, a malformed message). */
export function factOf(e: EventLike): MessageFact | null {
  if (!(COUNTED_EVENTS as readonly string[]).includes(e.event_type) || !e.phone_id || !e.org_id) return null;
  const m = e.data as {
    message_id?: unknown;
    chat_id?: unknown;
    timestamp?: unknown;
    from_me?: unknown;
    flag_status?: unknown;
    is_status?: unknown;
    performed_by?: unknown;
  };
  if (!m || typeof m.message_id !== 'string' || typeof m.chat_id !== 'string' || typeof m.timestamp !== 'string') return null;
  if (isStatusChat(m.chat_id) || m.is_status === true) return null;
  const at = Date.parse(m.timestamp);
  const version = Date.parse(e.created_at);
  if (!Number.isFinite(at) || !Number.isFinite(version)) return null;
  return {
    org_id: e.org_id,
    phone_id: e.phone_id,
    chat_id: m.chat_id,
    message_id: m.message_id,
    at,
    from_me: m.from_me === true,
    flagged: e.event_type === 'message.flagged' ? true : e.event_type === 'message.unflagged' ? false : m.flag_status === true,
    version,
    performed_by: typeof m.performed_by === 'string' && m.performed_by !== '' ? m.performed_by : null,
  };
}

export const factKey = (f: { org_id: string; phone_id: string; message_id: string }) =>
  `${f.org_id}\u0000${f.phone_id}\u0000${f.message_id}`;
export const chatKey = (f: { org_id: string; phone_id: string; chat_id: string }) => `${f.org_id}\u0000${f.phone_id}\u0000${f.chat_id}`;

/** One fact per message copy: the newest flag state among a batch's (a batch may hold a message's created and flagged events). */
export function dedupeFacts(facts: readonly MessageFact[]): MessageFact[] {
  const byKey = new Map<string, MessageFact>();
  for (const f of facts) {
    const k = factKey(f);
    const seen = byKey.get(k);
    if (!seen || f.version > seen.version) byKey.set(k, f);
  }
  return [...byKey.values()].sort((a, b) => (factKey(a) < factKey(b) ? -1 : factKey(a) > factKey(b) ? 1 : 0));
}
