import { factOf } from '../ingest/message-facts';

/** What the SLA timers read of a message: its chat copy, its own timestamp and direction. */
export interface SlaMessageFact {
  org_id: string;
  phone_id: string;
  chat_id: string;
  message_id: string;
  /** The message's own timestamp (epoch ms). */
  at: number;
  from_me: boolean;
}

/** A chat's labels (organization-wide) as a chat.label.updated event said, at `version` (the event's created_at). */
export interface SlaLabelFact {
  org_id: string;
  chat_id: string;
  label_ids: string[];
  version: number;
}

interface EventLike {
  event_type: string;
  org_id: string;
  phone_id: string | null;
  created_at: string;
  data: unknown;
}

/** A message.created event's fact (status updates and malformed messages: null); other events: null. */
export function slaMessageFactOf(e: EventLike): SlaMessageFact | null {
  if (e.event_type !== 'message.created') return null;
  const f = factOf(e);
  return f && { org_id: f.org_id, phone_id: f.phone_id, chat_id: f.chat_id, message_id: f.message_id, at: f.at, from_me: f.from_me };
}

/** A chat.label.updated event's labels (the ids its label_ids map sets true); other or malformed events: null. */
export function slaLabelFactOf(e: EventLike): SlaLabelFact | null {
  if (e.event_type !== 'chat.label.updated' || !e.org_id) return null;
  const d = e.data as { chat_id?: unknown; label_ids?: unknown } | null;
  const version = Date.parse(e.created_at);
  if (!d || typeof d.chat_id !== 'string' || !Number.isFinite(version)) return null;
  const labels = d.label_ids && typeof d.label_ids === 'object' ? (d.label_ids as Record<string, unknown>) : {};
  const label_ids = Object.keys(labels)
    .filter((k) => labels[k] === true)
    .sort();
  return { org_id: e.org_id, chat_id: d.chat_id, label_ids, version };
}

/** The key of a chat copy. */
export const copyKey = (f: { org_id: string; phone_id: string; chat_id: string }) => `${f.org_id}\u0000${f.phone_id}\u0000${f.chat_id}`;
/** The key of a chat's labels (shared by the organization's phones). */
export const chatKey = (f: { org_id: string; chat_id: string }) => `${f.org_id}\u0000${f.chat_id}`;
