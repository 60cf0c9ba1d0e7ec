import { normalizeMessageContent, toNumber, type WAMessage } from 'baileys';
import type { MessageChange } from '../connector/phone-connector';
import { toContactId, type MapContext } from './baileys-mapping';
import { PIN_SECONDS } from './message-actions';

/** proto.Message.PinInChatMessage.Type */
const PIN_FOR_ALL = 1;
const UNPIN_FOR_ALL = 2;

type Long = number | { toNumber(): number } | null | undefined;
const num = (v: Long) => toNumber(v as never) || 0;

/**
 * A pin or unpin (a `pinInChatMessage` arriving in `messages.upsert`, the network's echo of this
 * phone's pin or another participant's) as a change of the pinned message; null for anything else.
 * The pinned message's key is the pinner's view of it, so one from someone else is turned to this
 * phone's view, as the library does for reactions: their own message is not ours, and a message they
 * saw as not theirs is ours when its author (or, 1:1, its chat) is this phone. A pin lasts the
 * duration it carries (messageAddOnDurationInSecs), 7 days when it carries none.
 */
export function toPinChange(msg: WAMessage, ctx: MapContext, now = Date.now()): MessageChange | null {
  const content = normalizeMessageContent(msg.message);
  const pin = content?.pinInChatMessage;
  const target = pin?.key;
  const chatJid = msg.key.remoteJid;
  if (!pin || !target?.id || !chatJid || (pin.type !== PIN_FOR_ALL && pin.type !== UNPIN_FOR_ALL)) return null;
  const me = ctx.me ? `${ctx.me}@c.us` : null;
  const fromMe = msg.key.fromMe
    ? !!target.fromMe
    : !target.fromMe && me !== null && toContactId(target.participant || target.remoteJid, ctx) === me;
  const at = num(pin.senderTimestampMs as Long) || num(msg.messageTimestamp as Long) * 1000 || now;
  const seconds =
    num(content?.messageContextInfo?.messageAddOnDurationInSecs ?? msg.message?.messageContextInfo?.messageAddOnDurationInSecs) ||
    PIN_SECONDS;
  const pinned = pin.type === PIN_FOR_ALL;
  return {
    chat_id: toContactId(chatJid, ctx),
    unique_id: target.id,
    from_me: fromMe,
    pin: { pinned, at: new Date(at).toISOString(), expires_at: pinned ? new Date(at + seconds * 1000).toISOString() : null },
  };
}

/** The pins and unpins among the messages of one `messages.upsert`. */
export function toPinChanges(messages: readonly WAMessage[], ctx: MapContext, now = Date.now()): MessageChange[] {
  return messages.map((m) => toPinChange(m, ctx, now)).filter((c): c is MessageChange => !!c);
}
