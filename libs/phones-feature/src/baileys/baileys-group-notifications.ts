import { WAMessageStubType, isJidGroup, toNumber, type WAMessage } from 'baileys';
import type { GroupNotification } from '../connector/phone-connector';
import { toContactId, type MapContext } from './baileys-mapping';

/** The network's group notification kinds as the API names them (whatsapp-web.js' GroupNotification types). */
const TYPES: Partial<Record<number, string>> = {
  [WAMessageStubType.GROUP_CREATE]: 'create',
  [WAMessageStubType.GROUP_CHANGE_SUBJECT]: 'subject',
  [WAMessageStubType.GROUP_CHANGE_DESCRIPTION]: 'description',
  [WAMessageStubType.GROUP_CHANGE_RESTRICT]: 'restrict',
  [WAMessageStubType.GROUP_CHANGE_ANNOUNCE]: 'announce',
  [WAMessageStubType.GROUP_PARTICIPANT_ADD]: 'add',
  [WAMessageStubType.GROUP_PARTICIPANT_REMOVE]: 'remove',
  [WAMessageStubType.GROUP_PARTICIPANT_PROMOTE]: 'promote',
  [WAMessageStubType.GROUP_PARTICIPANT_DEMOTE]: 'demote',
  [WAMessageStubType.GROUP_PARTICIPANT_INVITE]: 'invite',
  [WAMessageStubType.GROUP_PARTICIPANT_LEAVE]: 'leave',
};
const ABOUT_PARTICIPANTS = new Set(['add', 'remove', 'promote', 'demote', 'invite', 'leave']);

/**
 * The group notifications among received messages. The library turns each group notification of
 * the network into a stub message (messageStubType, messageStubParameters) and derives its
 * `group-participants.update` / `groups.update` events from that same message; the message also
 * carries the network's id of the notification (key.id) and its time, which those events drop. So
 * the notifications are read here, where the id makes a redelivery recognisable.
 */
export function toGroupNotifications(messages: WAMessage[], ctx: MapContext): GroupNotification[] {
  const out: GroupNotification[] = [];
  for (const msg of messages) {
    const chatId = msg.key.remoteJid;
    const type = msg.messageStubType ? TYPES[msg.messageStubType] : undefined;
    if (!type || !chatId || !isJidGroup(chatId) || !msg.key.id) continue;
    const params = msg.messageStubParameters ?? [];
    const author = msg.participant ?? msg.key.participant ?? null;
    const seconds = toNumber((msg.messageTimestamp ?? 0) as number);
    out.push({
      chat_id: chatId,
      id: msg.key.id,
      type,
      author: author ? toContactId(author, ctx) : null,
      recipients: ABOUT_PARTICIPANTS.has(type) ? params.map((p) => toContactId(p, ctx)) : [],
      body: ABOUT_PARTICIPANTS.has(type) ? null : settingValue(type, params[0]),
      timestamp: new Date(seconds ? seconds * 1000 : Date.now()).toISOString(),
    });
  }
  return out;
}

/** subject/description/create: the text; announce/restrict: on or off. */
function settingValue(type: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  if (type === 'announce' || type === 'restrict') return value === 'true' || value === 'on' ? 'on' : 'off';
  return value;
}
