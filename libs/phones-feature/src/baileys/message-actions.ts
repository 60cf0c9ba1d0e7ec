import { sendUniqueId } from '@mapi/contracts';
import { toNumber, type AnyMessageContent, type WAMessage, type WAMessageKey } from 'baileys';
import type { MessageActionsPort, MessageKey, OutgoingContent } from '../connector/phone-connector';
import type { BaileysConnectorDeps } from './baileys-connector-deps';
import type { BaileysSocket } from './baileys-types';
import { toJid } from './baileys-mapping';
import { toMessageContent } from './outgoing-content';

/** How long a pin lasts: 7 days, the network's default (24 hours and 30 days are the others). */
export const PIN_SECONDS = 604_800;

/** The library's key of a message: a group message by another person names its sender as participant. */
export function toMessageKey(key: MessageKey): WAMessageKey {
  const group = key.chat_id.endsWith('@g.us');
  return {
    remoteJid: toJid(key.chat_id),
    id: key.unique_id,
    fromMe: key.from_me,
    ...(group && !key.from_me ? { participant: toJid(key.sender_phone) } : {}),
  };
}

/** The library's content of each action (sock.sendMessage(jid, content)). */
export const actionContent = {
  edit: (key: MessageKey, body: string): AnyMessageContent => ({ text: body, edit: toMessageKey(key) }),
  delete: (key: MessageKey): AnyMessageContent => ({ delete: toMessageKey(key) }),
  react: (key: MessageKey, reaction: string): AnyMessageContent => ({ react: { text: reaction, key: toMessageKey(key) } }),
  /** proto.PinInChat.Type: 1 pin for all, 2 unpin for all. */
  pin: (key: MessageKey, pin: boolean): AnyMessageContent =>
    pin ? { pin: toMessageKey(key), type: 1, time: PIN_SECONDS } : { pin: toMessageKey(key), type: 2 },
  /**
   * A forward: the original message when this session still holds it (the network then forwards it
   * as it is, media included), else its text or media sent again, marked forwarded.
   */
  forward: async (
    original: WAMessage | undefined,
    content: OutgoingContent,
    loadMedia: BaileysConnectorDeps['loadMedia'],
  ): Promise<AnyMessageContent> => {
    if (original) return { forward: original };
    const built = await toMessageContent(content, loadMedia);
    return { ...built, contextInfo: { isForwarded: true, forwardingScore: 1 } } as AnyMessageContent;
  },
};

/**
 * A Baileys phone's actions on messages. The library echoes each one as the phone's own event (the
 * edit and the deletion as messages.update, the reaction as messages.reaction, the forwarded copy
 * as messages.upsert), which the connector maps and hands on like any other.
 *
 * Retries: an edit to the same text, a deletion, the same reaction and a pin are the same on the
 * network when repeated (the network keeps the latest). A forward is sent under a message id
 * derived from its `sentMessageId` and logged once sent, so a retried command returns the first copy;
 * a crash between the network's accepting it and the log being written re-sends it under the same
 * id, which the network and ingestion take as the same message.
 */
export class BaileysMessageActions implements MessageActionsPort {
  constructor(
    private readonly phoneId: string,
    private readonly deps: Pick<BaileysConnectorDeps, 'sent' | 'loadMedia'>,
    private readonly socket: () => BaileysSocket,
    private readonly recent: (uniqueId: string) => WAMessage | undefined,
    /** Links the echo of a send to its sentMessageId (the connector reads it while mapping messages.upsert). */
    private readonly pendingSends: Map<string, string>,
  ) {}

  async editMessage(key: MessageKey, body: string): Promise<void> {
    await this.socket().sendMessage(toJid(key.chat_id), actionContent.edit(key, body));
  }

  async deleteMessage(key: MessageKey): Promise<void> {
    await this.socket().sendMessage(toJid(key.chat_id), actionContent.delete(key));
  }

  async reactToMessage(key: MessageKey, reaction: string): Promise<void> {
    await this.socket().sendMessage(toJid(key.chat_id), actionContent.react(key, reaction));
  }

  async pinMessage(key: MessageKey, pin: boolean): Promise<void> {
    await this.socket().sendMessage(toJid(key.chat_id), actionContent.pin(key, pin));
  }

  async forwardMessage(
    key: MessageKey,
    chatId: string,
    content: OutgoingContent,
    sentMessageId: string,
  ): Promise<{ unique_id: string; timestamp: string; duplicate: boolean }> {
    const earlier = await this.deps.sent.find(this.phoneId, sentMessageId);
    if (earlier) return { unique_id: earlier.unique_id, timestamp: earlier.sent_at.toISOString(), duplicate: true };
    const sock = this.socket();
    const messageId = sendUniqueId(this.phoneId, sentMessageId);
    const built = await actionContent.forward(this.recent(key.unique_id), content, this.deps.loadMedia);
    this.pendingSends.set(messageId, sentMessageId);
    try {
      const sent = await sock.sendMessage(toJid(chatId), built, { messageId });
      const seconds = toNumber((sent?.messageTimestamp ?? 0) as number);
      const sentAt = seconds ? new Date(seconds * 1000) : new Date();
      await this.deps.sent.record(this.phoneId, sentMessageId, chatId, { unique_id: messageId, sent_at: sentAt });
      return { unique_id: messageId, timestamp: sentAt.toISOString(), duplicate: false };
    } finally {
      setTimeout(() => this.pendingSends.delete(messageId), 60_000).unref();
    }
  }
}
