import { isStatusChat } from '../ingest/message-facts';

/** A message.created the flagging intake reads: its chat, direction, text and own timestamp. */
export interface FlagMessageFact {
  type: 'message';
  org_id: string;
  phone_id: string;
  chat_id: string;
  message_id: string;
  /** The message's own timestamp (epoch ms). */
  at: number;
  from_me: boolean;
  body: string | null;
}

/** A message.flagged / message.unflagged: the message's flag as of `version` (the event's created_at). */
export interface FlagStateFact {
  type: 'state';
  org_id: string;
  phone_id: string;
  chat_id: string;
  message_id: string;
  at: number;
  flagged: boolean;
  /** flag_metadata.flagged_at (epoch ms) of a flag; null when unflagged or not given. */
  flagged_at: number | null;
  version: number;
}

export type FlagFact = FlagMessageFact | FlagStateFact;

interface EventLike {
  event_type: string;
  org_id: string;
  phone_id: string | null;
  created_at: string;
  data: unknown;
}

const TAKEN = ['message.created', 'message.flagged', 'message.unflagged'];

/** The fact of a message event (status updates, other and malformed events: null). */
export function flagFactOf(e: EventLike): FlagFact | null {
  if (!TAKEN.includes(e.event_type) || !e.org_id || !e.phone_id) return null;
  const m = e.data as Record<string, unknown> | null;
  if (!m || typeof m.message_id !== 'string' || typeof m.chat_id !== 'string' || typeof m.timestamp !== 'string') return null;
  if (isStatusChat(m.chat_id) || m.is_status === true) return null;
  const at = Date.parse(m.timestamp);
  const version = Date.parse(e.created_at);
  if (!Number.isFinite(at) || !Number.isFinite(version)) return null;
  const base = { org_id: e.org_id, phone_id: e.phone_id, chat_id: m.chat_id, message_id: m.message_id, at };
  if (e.event_type === 'message.created')
    return { type: 'message', ...base, from_me: m.from_me === true, body: typeof m.body === 'string' ? m.body : null };
  const meta = m.flag_metadata as { flagged_at?: unknown } | null | undefined;
  const flaggedAt = meta && typeof meta.flagged_at === 'string' ? Date.parse(meta.flagged_at) : NaN;
  const flagged = e.event_type === 'message.flagged';
  return { type: 'state', ...base, flagged, flagged_at: flagged ? (Number.isFinite(flaggedAt) ? flaggedAt : version) : null, version };
}

/** The key of a chat of an organization (a flag is the organization's, whichever phone holds the copy). */
export const orgChatKey = (f: { org_id: string; chat_id: string }) => `${f.org_id}\u0000${f.chat_id}`;
