import { createHash, randomUUID } from 'node:crypto';
import { Errors, performedByOf, type ForwardMessageRequest, type Media } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import { isPoll, messageInReach, networkKey, refused } from '../../messages/acting-message';
import type { HeldMessage, MessageRefRepository } from '../../repositories/message-ref-repository';
import type { ChatsInReach } from '../chats-in-reach/chats-in-reach.usecase';
import { CHAT_NOT_FOUND } from '../get-chat/get-chat.usecase';

/** A UUID (v4 layout) from a hash: the same request and chat give the same forward id. */
function derivedUuid(parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** What the forward carries: the text (or caption) and the stored media's link. */
function forwardContent(row: HeldMessage): { text?: string; media?: { url: string; filename: string; mimetype: string } } {
  const media = row.media as Media | null;
  return {
    ...(row.body ? { text: row.body } : {}),
    ...(media?.path ? { media: { url: media.path, filename: media.filename, mimetype: media.mimetype } } : {}),
  };
}

/**
 * POST /message/{message_id}/forward: the phone forwards the message to each chat, one session
 * command per chat, in order. Each forward has an id (its sent_message_id): with an Idempotency-Key
 * it is derived from the key, the message and the chat, so a retried request re-sends nothing that
 * was forwarded (the connector answers the first copy); without one, each request forwards anew.
 * A phone that disconnects midway answers 400 ERROR; a chat the network refuses (a Cloud API phone's
 * closed 24-hour window) answers 422 on `forward_chat_ids`; the chats done before keep their copy.
 */
export class ForwardMessage {
  constructor(
    private readonly messages: MessageRefRepository,
    private readonly sessions: SessionCommands,
    private readonly targets: ChatsInReach,
  ) {}

  async execute({ ctx, params, body, headers }: ForwardMessageRequest): Promise<null> {
    const row = await messageInReach(this.messages, ctx, params.message_id);
    // a member forwards only to chats they may send to (within reach, or new to a member of every label)
    if (ctx.member?.role === 'member') {
      const { missing } = await this.targets.execute({ ctx, body: { chat_ids: body.forward_chat_ids, to_send: true } });
      if (missing.length) throw Errors.notFound(CHAT_NOT_FOUND);
    }
    if (row.is_deleted) throw refused(params.message_id, 'A deleted message cannot be forwarded');
    if (isPoll(row)) throw refused(params.message_id, 'A poll cannot be forwarded');
    const content = forwardContent(row);
    if (!content.text && !content.media)
      throw refused(params.message_id, `A ${row.message_type} message without text or stored media cannot be forwarded`);
    const key = headers?.['idempotency-key'];
    const request = key ? null : randomUUID();
    const performedBy = performedByOf(ctx);
    for (const chatId of [...new Set(body.forward_chat_ids)]) {
      const sentMessageId = key
        ? derivedUuid([ctx.org_id, row.phone_id, row.message_id, key, chatId])
        : derivedUuid([request as string, chatId]);
      // refused by the network for that chat (a Cloud API phone's 24-hour window closed): the 422 naming it
      await this.sessions.require(
        row.phone_id,
        {
          cmd: 'message-forward',
          key: networkKey(row),
          chat_id: chatId,
          content,
          sent_message_id: sentMessageId,
          performed_by: performedBy,
        },
        (message) => Errors.validation({ forward_chat_ids: { message, value: chatId } }, message),
      );
    }
    return null;
  }
}
