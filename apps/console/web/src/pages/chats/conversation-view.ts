import { digits, type ChatDetail, type ChatMember, type Message, type Note, type Reaction } from '../../api/types';

/**
 * The conversation's pure logic (issue 33 item 2): delivery marks, who wrote a group message, the
 * quoted message, reactions, pins, media kinds, the timeline of messages and notes, and the pages of
 * older messages. Kept free of the DOM (unit-tested in conversation-view.spec.ts).
 */

export type AckTone = 'failed' | 'pending' | 'sent' | 'delivered' | 'read';

/** The mark of a sent message's `ack` (spec 2.1: -1 failed, 0 pending, 1 server, 2 delivered, 3 read, 4 played). */
export function ackMark(ack: string | null | undefined): { glyph: string; label: string; tone: AckTone } | null {
  switch (ack) {
    case '-1':
      return { glyph: '!', label: 'Not sent', tone: 'failed' };
    case '0':
      return { glyph: '◷', label: 'Pending', tone: 'pending' };
    case '1':
      return { glyph: '✓', label: 'Sent', tone: 'sent' };
    case '2':
      return { glyph: '✓✓', label: 'Delivered', tone: 'delivered' };
    case '3':
      return { glyph: '✓✓', label: 'Read', tone: 'read' };
    case '4':
      return { glyph: '✓✓', label: 'Played', tone: 'read' };
    default:
      return null;
  }
}

export const isGroupChat = (chatId: string, chat?: Pick<ChatDetail, 'chat_type'> | null): boolean =>
  chat?.chat_type === 'group' || chatId.endsWith('@g.us');

/** A member's name as the team knows it: the name given through the API, else the network's. */
export const memberName = (m: ChatMember | undefined): string | null => m?.contact_name || m?.name || m?.pushname || null;

/**
 * Who wrote a message of a group: the member (author, else sender_phone) with their name from the
 * chat's members (else the message's own sender_name) and number. Null for one's own messages.
 */
export function senderOf(
  m: Message,
  members: Record<string, ChatMember> | null | undefined,
): { name: string | null; number: string } | null {
  if (m.from_me) return null;
  const id = m.author || m.sender_phone;
  if (!id) return null;
  const number = digits(id);
  const member = members?.[id] ?? members?.[`${number}@c.us`];
  return { name: memberName(member) || m.sender_name || null, number };
}

/** Messages by message_id and by network id (unique_id): `quoted_message_id` may be either. */
export function indexMessages(list: readonly Message[]): Map<string, Message> {
  const out = new Map<string, Message>();
  for (const m of list) {
    if (m.unique_id) out.set(m.unique_id, m);
    out.set(m.message_id, m);
  }
  return out;
}

/** `<from_me>_<chat_id>_<unique_id>`, split after the chat id's domain (a unique id may hold `_`: splitMessageId). */
const MESSAGE_ID = /^(true|false)_(.+?@[a-z.]+)_(.+)$/;

/** The message a reply quotes: found (loaded), missing (not loaded, or gone), or none. */
export function quotedOf(m: Message, index: ReadonlyMap<string, Message>): { found: Message } | { missing: string } | null {
  const id = m.quoted_message_id;
  if (!id) return m.has_quoted_msg ? { missing: '' } : null;
  const found = index.get(id) ?? index.get(id.replace(MESSAGE_ID, '$3'));
  return found ? { found } : { missing: id };
}

/**
 * The message_ids to ask GET /message/{message_id} for a quoted message that is not loaded:
 * `quoted_message_id` itself when it is a message_id, else (a bare network id) the chat's message
 * of that id received, then sent (`<from_me>_<chat_id>_<unique_id>`).
 */
export function quotedCandidates(quotedId: string, chatId: string): string[] {
  if (MESSAGE_ID.test(quotedId)) return [quotedId];
  return [`false_${chatId}_${quotedId}`, `true_${chatId}_${quotedId}`];
}

/** The quoted ids of these messages that the index does not hold (to fetch). */
export const missingQuotes = (list: readonly Message[], index: ReadonlyMap<string, Message>): string[] => [
  ...new Set(
    list
      .map((m) => quotedOf(m, index))
      .filter((q): q is { missing: string } => !!q && 'missing' in q && q.missing !== '')
      .map((q) => q.missing),
  ),
];

/** The text a message shows in short (a quote, a reply banner). */
export function excerpt(m: Message, max = 120): string {
  if (m.is_deleted) return 'Deleted message';
  const text = (m.body ?? '').trim();
  if (text) return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  const kind = mediaKind(m);
  return kind ? `(${kind}${m.media?.filename ? `: ${m.media.filename}` : ''})` : '(no text)';
}

export const isEdited = (m: Message): boolean => !m.is_deleted && m.prev_body !== null && m.prev_body !== undefined;

export type ReactionCount = { emoji: string; count: number; senders: string[] };

/** The reactions that stand, per message: each emoji with its count and who reacted (numbers), in first-seen order. */
export function reactionsByMessage(list: readonly Reaction[]): Map<string, ReactionCount[]> {
  const out = new Map<string, ReactionCount[]>();
  const ordered = [...list].sort((a, b) => (a.timestamp ?? '').localeCompare(b.timestamp ?? ''));
  for (const r of ordered) {
    if (!r.reaction) continue;
    const counts = out.get(r.message_id) ?? [];
    const one = counts.find((c) => c.emoji === r.reaction);
    if (one) {
      one.count += 1;
      one.senders.push(digits(r.sender_id));
    } else counts.push({ emoji: r.reaction, count: 1, senders: [digits(r.sender_id)] });
    out.set(r.message_id, counts);
  }
  return out;
}

/** A reaction event applied: a sender's reaction to a message replaces their earlier one ('' removes it). */
export function withReaction(list: readonly Reaction[], r: Reaction): Reaction[] {
  const rest = list.filter((x) => !(x.message_id === r.message_id && x.sender_id === r.sender_id));
  return r.reaction ? [...rest, r] : rest;
}

/** The message ids pinned now, from the chat's `pinned_messages` ({message_id, expires_at} epoch ms). */
export function pinnedIds(pinned: unknown, now: number): Set<string> {
  const out = new Set<string>();
  if (!Array.isArray(pinned)) return out;
  for (const p of pinned as { message_id?: unknown; expires_at?: unknown }[]) {
    if (typeof p?.message_id !== 'string') continue;
    if (typeof p.expires_at === 'number' && p.expires_at <= now) continue;
    out.add(p.message_id);
  }
  return out;
}

export type MediaKind = 'image' | 'video' | 'audio' | 'document';

/** What a message's file is, from its mimetype, else its type; null when it has none. */
export function mediaKind(m: Pick<Message, 'media' | 'message_type'>): MediaKind | null {
  const type = m.media?.mimetype ?? '';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (m.media) return 'document';
  const t = m.message_type ?? '';
  if (t === 'image' || t === 'sticker') return 'image';
  if (t === 'video') return 'video';
  if (t === 'audio' || t === 'ptt') return 'audio';
  if (t === 'document') return 'document';
  return null;
}

/** The largest file the console attaches: its base64 must fit the API's 10 MB JSON body. */
export const MAX_ATTACHMENT_BYTES = 7 * 1024 * 1024;

/** POST /message/send `media.type` for a file's mimetype. */
export function sendMediaType(mimetype: string): MediaKind {
  const kind = mediaKind({ media: { mimetype } });
  return kind ?? 'document';
}

/** The media paths of messages that have a file, without repeats (what to ask POST /media/migrate-url/batch for). */
export const mediaPaths = (list: readonly Message[]): string[] => [
  ...new Set(list.map((m) => (m.is_deleted ? null : m.media?.path)).filter((p): p is string => !!p)),
];

/** The thumbnail as an image source: a data URL as is, bare base64 as a JPEG data URL. */
export function thumbnailSrc(thumbnail: string | null | undefined): string | null {
  if (!thumbnail) return null;
  if (thumbnail.startsWith('data:image/')) return thumbnail;
  return /^[A-Za-z0-9+/=\s]+$/.test(thumbnail) ? `data:image/jpeg;base64,${thumbnail.replace(/\s/g, '')}` : null;
}

/** The size an image is shown at (at most 256 px a side, its aspect kept), so its place is kept before it loads. */
export function imageBox(d: { width?: number; height?: number } | null | undefined, max = 256): { width: number; height: number } | null {
  if (!d?.width || !d.height || d.width <= 0 || d.height <= 0) return null;
  const scale = Math.min(1, max / Math.max(d.width, d.height));
  return { width: Math.max(1, Math.round(d.width * scale)), height: Math.max(1, Math.round(d.height * scale)) };
}

export function fileSize(bytes: number | null | undefined): string {
  if (!bytes || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const at = (iso: string | null | undefined): number => (iso ? Date.parse(iso) : Number.NaN);
/** By time only: the API's timestamps are whole seconds, so rows of one second keep the order they are put in (a stable sort). */
const byTime = (a: Message, b: Message) => (at(a.timestamp) || 0) - (at(b.timestamp) || 0);

/**
 * A page of messages as the API answers it (newest first; within a second, the order it stored
 * them) merged in, one row per message_id, oldest first. For a page of older messages the row held
 * wins (an event may have changed it since the page was read); a re-read of the newest page
 * (`fresh`, at a reconnection) wins over what is held.
 */
export function withPage(list: readonly Message[], page: readonly Message[], fresh = false): Message[] {
  const oldestFirst = [...page].reverse();
  if (fresh) {
    const read = new Set(page.map((m) => m.message_id));
    return [...list.filter((m) => !read.has(m.message_id)), ...oldestFirst].sort(byTime);
  }
  const held = new Set(list.map((m) => m.message_id));
  return [...oldestFirst.filter((m) => !held.has(m.message_id)), ...list].sort(byTime);
}

/** A message event applied: its row replaced, or the message added after those of its time. */
export function withMessage(list: readonly Message[], m: Message): Message[] {
  if (list.some((x) => x.message_id === m.message_id)) return list.map((x) => (x.message_id === m.message_id ? m : x));
  return [...list, m].sort(byTime);
}

export type TimelineItem = { kind: 'message'; message: Message } | { kind: 'note'; note: Note };

/**
 * Messages and the team's notes in one timeline, oldest first; a note sits after the messages
 * written before it. While older messages remain to load (`complete` false), notes older than the
 * first loaded message wait for them (they would otherwise show out of place at the top).
 */
export function timeline(messages: readonly Message[], notes: readonly Note[], complete: boolean): TimelineItem[] {
  const first = messages.length ? at(messages[0].timestamp) : Number.NaN;
  const items: { t: number; order: number; item: TimelineItem }[] = messages.map((m, i) => ({
    t: at(m.timestamp),
    order: i,
    item: { kind: 'message', message: m },
  }));
  notes.forEach((n, i) => {
    const t = at(n.timestamp);
    if (!complete && !Number.isNaN(first) && !Number.isNaN(t) && t < first) return;
    items.push({ t: Number.isNaN(t) ? Number.MAX_SAFE_INTEGER : t, order: messages.length + i, item: { kind: 'note', note: n } });
  });
  return items.sort((a, b) => (a.t || 0) - (b.t || 0) || a.order - b.order).map((x) => x.item);
}

/** Whether to ask for older messages: the reader is near the top, more may exist and no read is under way. */
export const wantsOlder = (scrollTop: number, hasOlder: boolean, loading: boolean): boolean => hasOlder && !loading && scrollTop < 80;

/** The chats typed in a forward box: numbers (with or without +, spaces) or chat ids, separated by commas. */
export const forwardTargets = (text: string): string[] => [
  ...new Set(
    text
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean)
      .map((t) => (/^\+?[\d\s-]+$/.test(t) ? t.replace(/\D/g, '') : t)),
  ),
];

/**
 * Who left a note, as its label shows it: `performed_by` when it names a person (an email); the id of
 * the token or session it was made with (a uuid, meaningless to a reader) is not shown.
 */
export const noteAuthor = (performedBy: string | null | undefined): string | null =>
  performedBy && performedBy.includes('@') ? performedBy : null;
