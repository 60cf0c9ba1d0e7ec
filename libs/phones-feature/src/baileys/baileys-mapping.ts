import type { IngestMessage, Media } from '@mapi/contracts';
import {
  WAMessageStubType,
  getAggregateVotesInPollMessage,
  getContentType,
  getKeyAuthor,
  isJidGroup,
  isLidUser,
  jidDecode,
  normalizeMessageContent,
  toNumber,
  type BaileysEventMap,
  type Chat,
  type GroupMetadata as WAGroupMetadata,
  type MessageUserReceiptUpdate,
  type WAMessage,
  type WAMessageContent,
  type WAMessageKey,
  type WAMessageUpdate,
  type proto,
} from 'baileys';
import type { ChatInfo, GroupMetadata, MessageChange, ParticipantResult, ReceiptUpdate } from '../connector/phone-connector';
import type { LidMap } from './lid-map';

/**
 * Everything that turns the library's events into the port's shapes (spec 2.1 message fields), in
 * one place. Contact ids are `<digits>@c.us` (LIDs become the phone number when the library told us
 * which), groups stay `<id>@g.us`.
 */
export interface MapContext {
  /** digits of this phone's own number (null before pairing) */
  me: string | null;
  lids: LidMap;
}

type Long = number | { toNumber(): number } | null | undefined;
const seconds = (t: Long) => toNumber(t as never);

/** `<user>@s.whatsapp.net` (any device) → `<user>@c.us`; a known LID → its phone; groups unchanged. */
export function toContactId(jid: string | null | undefined, ctx: MapContext): string {
  if (!jid) return '';
  const decoded = jidDecode(jid);
  if (!decoded) return jid;
  if (isLidUser(jid)) {
    const pn = ctx.lids.pnOf(jid);
    return pn ? `${jidDecode(pn)?.user}@c.us` : `${decoded.user}@lid`;
  }
  if (decoded.server === 's.whatsapp.net' || decoded.server === 'c.us') return `${decoded.user}@c.us`;
  return `${decoded.user}@${decoded.server}`;
}

/** The library's address for an API contact id (`<digits>@c.us` → `<digits>@s.whatsapp.net`). */
export function toJid(id: string): string {
  return id.endsWith('@c.us') ? `${id.slice(0, -'@c.us'.length)}@s.whatsapp.net` : id;
}

/** Ack scale (../shared/reference/wider-api.md): the library's WAMessageStatus − 1, clamped to −1..4. */
export function ackOf(status: number | null | undefined, fallback = 1): number {
  if (status === null || status === undefined) return fallback;
  return Math.max(-1, Math.min(4, status - 1));
}

const TYPE_OF: Record<string, string> = {
  conversation: 'chat',
  extendedTextMessage: 'chat',
  imageMessage: 'image',
  videoMessage: 'video',
  ptvMessage: 'video',
  documentMessage: 'document',
  stickerMessage: 'sticker',
  locationMessage: 'location',
  liveLocationMessage: 'location',
  contactMessage: 'vcard',
  contactsArrayMessage: 'multi_vcard',
  pollCreationMessage: 'poll_creation',
  pollCreationMessageV2: 'poll_creation',
  pollCreationMessageV3: 'poll_creation',
};
/** Content that is not a message of its own (handled as an update, a reaction, a pin (pin-changes.ts), or key exchange). */
const NOT_A_MESSAGE = new Set([
  'protocolMessage',
  'reactionMessage',
  'pollUpdateMessage',
  'senderKeyDistributionMessage',
  'messageContextInfo',
  'encReactionMessage',
  'pinInChatMessage',
]);
const MEDIA_TYPES = new Set(['imageMessage', 'videoMessage', 'ptvMessage', 'audioMessage', 'documentMessage', 'stickerMessage']);

type AnyContent = { [k: string]: unknown; contextInfo?: proto.IContextInfo | null };

function contentOf(message: WAMessageContent | null | undefined): { type: string; content: AnyContent } | null {
  const normalized = normalizeMessageContent(message);
  const type = getContentType(normalized);
  if (!normalized || !type) return null;
  return { type, content: (normalized[type] ?? {}) as AnyContent };
}

/** The text a message shows: the text itself, a caption, a poll's question, a vcard. */
export function bodyOf(message: WAMessageContent | null | undefined): string | null {
  const c = contentOf(message);
  if (!c) return null;
  if (c.type === 'conversation') return (normalizeMessageContent(message)?.conversation as string) ?? null;
  const v = c.content;
  return ((v.text ?? v.caption ?? v.name ?? v.vcard ?? null) as string | null) || null;
}

/** The spec 2.1 message_type of a message's content. */
export function messageTypeOf(message: WAMessageContent | null | undefined): string {
  const c = contentOf(message);
  if (!c) return 'unknown';
  if (c.type === 'audioMessage') return c.content.ptt ? 'ptt' : 'audio';
  return TYPE_OF[c.type] ?? 'unknown';
}

/** Whether the message carries a file the library can download. */
export function hasMedia(msg: WAMessage): boolean {
  const c = contentOf(msg.message);
  return !!c && MEDIA_TYPES.has(c.type) && !!c.content.mediaKey;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'application/pdf': 'pdf',
};

/** Media metadata (spec 2.1 `media`); `path` is the service link of the stored file ('' when not stored). */
export function mediaOf(msg: WAMessage, path: string): Media | null {
  const c = contentOf(msg.message);
  if (!c || !MEDIA_TYPES.has(c.type)) return null;
  const v = c.content as proto.Message.IImageMessage & proto.Message.IDocumentMessage & proto.Message.IVideoMessage;
  const mimetype = (v.mimetype ?? 'application/octet-stream').split(';')[0].trim();
  const width = v.width ?? 0;
  const height = v.height ?? 0;
  const ext = EXTENSIONS[mimetype] ?? mimetype.split('/')[1]?.replace(/[^a-z0-9]/gi, '') ?? 'bin';
  return {
    dimensions: { ar: width && height ? width / height : 0, height, width },
    filename: v.fileName || `${msg.key.id}.${ext}`,
    mimetype,
    path,
    size: seconds(v.fileLength as Long) || 0,
    thumbnail: v.jpegThumbnail ? Buffer.from(v.jpegThumbnail).toString('base64') : '',
  };
}

function senderOf(key: WAMessageKey, participant: string | null | undefined, ctx: MapContext): string {
  if (key.fromMe) return ctx.me ? `${ctx.me}@c.us` : '';
  return toContactId(isJidGroup(key.remoteJid ?? '') ? (key.participant ?? participant) : key.remoteJid, ctx);
}

/**
 * A message of `messages.upsert` or a history sync as the port's message; null for what is not a
 * message of its own (protocol messages such as edits and revokes arrive as `messages.update`,
 * reactions, poll votes, key distribution, and notification stubs).
 */
export function toIngestMessage(
  msg: WAMessage,
  ctx: MapContext,
  options: { mediaPath?: string; sentMessageId?: string } = {},
): IngestMessage | null {
  const { key } = msg;
  if (!key.id || !key.remoteJid || key.remoteJid === 'status@broadcast') return null;
  const c = contentOf(msg.message);
  const undecryptable = !msg.message && msg.messageStubType === WAMessageStubType.CIPHERTEXT;
  if (!undecryptable && (!c || NOT_A_MESSAGE.has(c.type))) return null;
  const context = c?.content.contextInfo ?? null;
  const group = isJidGroup(key.remoteJid) ?? false;
  const sender = senderOf(key, msg.participant, ctx);
  const ts = seconds(msg.messageTimestamp as Long);
  return {
    chat_id: toContactId(key.remoteJid, ctx),
    unique_id: key.id,
    from_me: !!key.fromMe,
    sender_phone: sender,
    sender_name: key.fromMe ? null : (msg.pushName ?? null),
    body: undecryptable ? null : bodyOf(msg.message),
    message_type: undecryptable ? 'ciphertext' : messageTypeOf(msg.message),
    timestamp: new Date(ts ? ts * 1000 : Date.now()).toISOString(),
    ack: ackOf(msg.status, key.fromMe ? 0 : 1),
    media: mediaOf(msg, options.mediaPath ?? ''),
    author: group ? sender : null,
    is_forwarded: context?.isForwarded ?? null,
    quoted_message_id: context?.stanzaId ?? null,
    mentioned_ids: (context?.mentionedJid ?? []).map((j) => toContactId(j, ctx)),
    ...(options.sentMessageId ? { sent_message_id: options.sentMessageId } : {}),
  };
}

/** Per-user receipts (groups, and 1:1 in some versions) → one receipt per step the user reached. */
export function toReceipts(updates: readonly MessageUserReceiptUpdate[], ctx: MapContext): ReceiptUpdate[] {
  const out: ReceiptUpdate[] = [];
  for (const { key, receipt } of updates) {
    if (!key.id || !key.remoteJid) continue;
    const base = {
      chat_id: toContactId(key.remoteJid, ctx),
      unique_id: key.id,
      from_me: !!key.fromMe,
      participant: toContactId(receipt.userJid, ctx),
    };
    const steps: [number, Long][] = [
      [2, receipt.receiptTimestamp],
      [3, receipt.readTimestamp],
      [4, receipt.playedTimestamp],
    ];
    for (const [ack, at] of steps) if (seconds(at)) out.push({ ...base, ack, at: seconds(at) * 1000 });
  }
  return out;
}

/** `messages.update`: status changes become receipts (ack = status − 1), edits and revokes changes. */
export function toMessageUpdates(
  updates: readonly WAMessageUpdate[],
  ctx: MapContext,
  now = Date.now(),
): { receipts: ReceiptUpdate[]; changes: MessageChange[] } {
  const receipts: ReceiptUpdate[] = [];
  const changes: MessageChange[] = [];
  for (const { key, update } of updates) {
    if (!key.id || !key.remoteJid) continue;
    const base = { chat_id: toContactId(key.remoteJid, ctx), unique_id: key.id, from_me: !!key.fromMe };
    if (typeof update.status === 'number') receipts.push({ ...base, ack: ackOf(update.status), at: now });
    const edited = update.message?.editedMessage?.message;
    if (edited) {
      const body = bodyOf(edited.protocolMessage?.editedMessage ?? edited);
      if (body !== null) changes.push({ ...base, edit: { body } });
    }
    if (update.message === null && update.messageStubType === WAMessageStubType.REVOKE) changes.push({ ...base, deleted: true });
  }
  return { receipts, changes };
}

/** `messages.delete` (keys) → deletions. */
export function toDeletions(keys: readonly WAMessageKey[], ctx: MapContext): MessageChange[] {
  return keys
    .filter((k) => k.id && k.remoteJid)
    .map((k) => ({ chat_id: toContactId(k.remoteJid, ctx), unique_id: k.id as string, from_me: !!k.fromMe, deleted: true }));
}

/** Who sent a reaction or vote (its own message key): this phone when from me. */
function authorOf(key: WAMessageKey | null | undefined, ctx: MapContext): string {
  if (key?.fromMe) return ctx.me ? `${ctx.me}@c.us` : '';
  return toContactId(getKeyAuthor(key), ctx);
}

const isoOf = (ms: Long, fallback: number) => new Date(seconds(ms) || fallback).toISOString();

/**
 * A reaction (`messages.reaction`, or one carried by a history-synced message) as a change of the
 * message reacted to; `reaction: ''` when the sender took it back.
 */
export function toReactionChange(
  target: WAMessageKey | null | undefined,
  reaction: proto.IReaction,
  ctx: MapContext,
  now = Date.now(),
): MessageChange | null {
  if (!target?.id || !target.remoteJid) return null;
  return {
    chat_id: toContactId(target.remoteJid, ctx),
    unique_id: target.id,
    from_me: !!target.fromMe,
    reaction: {
      reaction_id: reaction.key?.id ?? '',
      sender_phone: authorOf(reaction.key, ctx),
      reaction: reaction.text ?? '',
      timestamp: isoOf(reaction.senderTimestampMs as Long, now),
    },
  };
}

export function toReactionChanges(events: BaileysEventMap['messages.reaction'], ctx: MapContext, now = Date.now()): MessageChange[] {
  return events.map((e) => toReactionChange(e.key, e.reaction, ctx, now)).filter((c): c is MessageChange => !!c);
}

/** Reactions a history-synced message carries (the phone sends them with it). */
export function historyReactions(msg: WAMessage, ctx: MapContext): MessageChange[] {
  return (msg.reactions ?? [])
    .map((r) => toReactionChange(msg.key, r, ctx, seconds(msg.messageTimestamp as Long) * 1000))
    .filter((c): c is MessageChange => !!c);
}

/** Whether the message creates a poll. */
export function isPollCreation(msg: WAMessage): boolean {
  return messageTypeOf(msg.message) === 'poll_creation';
}

/**
 * A poll's tally from its creation message and its (decrypted) votes, through the library's
 * getAggregateVotesInPollMessage: every option with its voters as contact ids.
 */
export function toPollResults(
  poll: Pick<WAMessage, 'message' | 'pollUpdates'>,
  ctx: MapContext,
): NonNullable<MessageChange['poll_results']> {
  const meJid = ctx.me ? `${ctx.me}@s.whatsapp.net` : undefined;
  return getAggregateVotesInPollMessage({ message: normalizeMessageContent(poll.message), pollUpdates: poll.pollUpdates }, meJid).map(
    (o) => ({
      name: o.name,
      voters: o.voters.map((v) => toContactId(v, ctx)).filter(Boolean),
    }),
  );
}

/** Group metadata with participants by phone number (a participant's LID is learned when both are given). */
export function toGroupMetadata(g: WAGroupMetadata, ctx: MapContext): GroupMetadata {
  ctx.lids.learnContacts(g.participants);
  return {
    chat_id: g.id,
    subject: g.subject ?? '',
    participants: g.participants.map((p) => {
      const superAdmin = p.admin === 'superadmin' || !!p.isSuperAdmin;
      return { id: toContactId(p.id, ctx), admin: superAdmin || p.admin === 'admin' || !!p.isAdmin, super_admin: superAdmin };
    }),
    ...groupSettingsOf(g),
  };
}

export function toChatInfo(chat: Chat, ctx: MapContext): ChatInfo | null {
  if (!chat.id || chat.id === 'status@broadcast') return null;
  return {
    chat_id: toContactId(chat.id, ctx),
    chat_name: chat.name ?? chat.displayName ?? null,
    chat_type: isJidGroup(chat.id) ? 'group' : 'user',
  };
}

const KNOWN_STATUS = new Set(['200', '403', '404', '409']);
/**
 * The library's answer to a participants update (`[{ status, jid }]`, status the server's code) as one
 * outcome per requested participant, in the request's order. Codes outside the port's set (e.g. 408:
 * left recently, 401) count as not allowed (403); a participant missing from the answer as 404.
 */
export function toParticipantResults(
  requested: readonly string[],
  answer: readonly { status: string; jid: string }[],
  ctx: MapContext,
): ParticipantResult[] {
  const byId = new Map(answer.map((a) => [toContactId(a.jid, ctx), String(a.status)]));
  return requested.map((id) => {
    const status = byId.get(toContactId(toJid(id), ctx));
    if (status === undefined) return { id, status: '404' as const };
    return { id, status: (KNOWN_STATUS.has(status) ? status : '403') as ParticipantResult['status'] };
  });
}

/** The settings a group's metadata carries (the library leaves out what it does not know). */
function groupSettingsOf(g: WAGroupMetadata): Pick<GroupMetadata, 'description' | 'announce' | 'restrict' | 'member_add_admins_only'> {
  return {
    ...(g.desc !== undefined ? { description: g.desc || null } : {}),
    ...(g.announce !== undefined ? { announce: !!g.announce } : {}),
    ...(g.restrict !== undefined ? { restrict: !!g.restrict } : {}),
    // memberAddMode: true when every member may add participants
    ...(g.memberAddMode !== undefined ? { member_add_admins_only: !g.memberAddMode } : {}),
  };
}
