/**
 * A chat's pins as stored (chats.pinned_messages): one entry per message ever pinned, the latest pin
 * or unpin of it (`at`, epoch ms). Unpins stay (`pinned: false`), so an older pin delivered late
 * cannot bring one back; entries ended (unpinned or expired) a month before a newer change are dropped.
 */
export interface StoredPin {
  message_id: string;
  at: number;
  pinned: boolean;
  expires_at: number | null;
}

/** A pinned message as the chat object shows it (ChatType.pinned_messages of @periskope/types). */
export interface PinnedMessage {
  message_id: string;
  pinned_at: number;
  expires_at: number;
}

const KEEP_ENDED_MS = 31 * 24 * 3600 * 1000;
const ended = (p: StoredPin, now: number) => !p.pinned || p.expires_at === null || p.expires_at <= now;

/** The stored value as entries (anything unreadable counts as none). */
export function storedPins(value: unknown): StoredPin[] {
  return Array.isArray(value)
    ? (value as StoredPin[]).filter((p) => p && typeof p.message_id === 'string' && typeof p.at === 'number')
    : [];
}

/**
 * The pins after one change, or null when it changes nothing: a change no newer than the message's
 * last one (a redelivery, or an older pin arriving late) is ignored.
 */
export function withPinChange(current: StoredPin[], change: StoredPin): StoredPin[] | null {
  const last = current.find((p) => p.message_id === change.message_id);
  if (last && last.at >= change.at) return null;
  const kept = current.filter((p) => p.message_id !== change.message_id && !(ended(p, change.at) && p.at < change.at - KEEP_ENDED_MS));
  return [...kept, change];
}

/** The messages pinned now, most recently pinned first; null when none (as before pins were kept). */
export function livePins(value: unknown, now = Date.now()): PinnedMessage[] | null {
  const live = storedPins(value)
    .filter((p) => !ended(p, now))
    .sort((a, b) => b.at - a.at)
    .map((p) => ({ message_id: p.message_id, pinned_at: p.at, expires_at: p.expires_at as number }));
  return live.length ? live : null;
}

/** The pins of several copies of a chat (one per phone) as one list: each message once, its newest pin. */
export function livePinsOfCopies(values: unknown[], now = Date.now()): PinnedMessage[] | null {
  const newest = new Map<string, StoredPin>();
  for (const p of values.flatMap(storedPins)) {
    const seen = newest.get(p.message_id);
    if (!seen || seen.at < p.at) newest.set(p.message_id, p);
  }
  return livePins([...newest.values()], now);
}
