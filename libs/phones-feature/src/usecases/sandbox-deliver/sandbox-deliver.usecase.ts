import { Errors, isGroupChatId, normalizeChatId, type SandboxInboundRequest } from '@mapi/contracts';
import { requirePhone } from '../../phones/require-phone';
import { contact, newUniqueId, type SandboxMessageRow } from '../../sandbox/sandbox-network';
import type { PairedDevice, SandboxPhones } from '../../sandbox/sandbox-phones';

/**
 * POST /sandbox/messages: a message arrives at the paired phone (or is typed on it, from_me); with
 * quoted_unique_id, a reply quoting a message of the chat on the phone.
 */
export class SandboxDeliver {
  constructor(private readonly sandbox: SandboxPhones) {}

  async execute({ ctx, body }: SandboxInboundRequest) {
    // A reply reads its quoted message with the device, in the same statement.
    const { device, quoted } = await this.deviceAndQuoted(ctx, body.quoted_unique_id);
    const chatId = normalizeChatId(body.chat_id);
    if (!chatId)
      throw Errors.validation({
        'body.chat_id': { message: 'chat_id must be a number with optional @c.us, or a group id ending with @g.us' },
      });
    const me = contact(device.number);
    let sender = me;
    if (isGroupChatId(chatId)) {
      const group = await this.sandbox.network.group(chatId);
      if (!group || !group.participants.some((p) => p.id === me))
        throw Errors.validation({ 'body.chat_id': { message: 'the phone is not a member of this sandbox group' } });
      if (!body.from_me) {
        if (!body.from) throw Errors.validation({ 'body.from': { message: 'from is required for a group message not sent by the phone' } });
        sender = contact(body.from);
      }
    } else if (!body.from_me) {
      sender = chatId;
    }
    if (body.type === 'image' && !body.media)
      throw Errors.validation({ 'body.media': { message: 'media is required for an image message' } });
    if (body.type === 'chat' && !body.body) throw Errors.validation({ 'body.body': { message: 'body is required for a text message' } });
    if (body.quoted_unique_id !== undefined && (!quoted || quoted.chat_id !== chatId || quoted.is_deleted))
      throw Errors.validation({
        'body.quoted_unique_id': {
          message:
            quoted?.chat_id === chatId ? 'the quoted message was deleted' : 'no message with this unique_id in this chat on this phone',
        },
      });
    const uniqueId = newUniqueId();
    await this.sandbox.network.addMessage(device.phone_id, {
      chat_id: chatId,
      unique_id: uniqueId,
      from_me: body.from_me,
      sender_phone: sender,
      sender_name: body.from_me ? null : (body.sender_name ?? null),
      body: body.body,
      message_type: body.type,
      timestamp: new Date().toISOString(),
      media: body.media ?? null,
      ack: body.from_me ? 1 : 0,
      // Threaded to the quoted message as a real network's reply is (Baileys' contextInfo.stanzaId):
      // ingestion stores quoted_message_id.
      ...(quoted ? { quoted_message_id: quoted.unique_id } : {}),
    });
    this.sandbox.notify(device.phone_id, 'messages');
    return { chat_id: chatId, unique_id: uniqueId, message_id: `${body.from_me}_${chatId}_${uniqueId}` };
  }

  /** The paired device (400 ERROR otherwise) and, for a reply, the message it quotes (null when the phone has none). */
  private async deviceAndQuoted(
    ctx: SandboxInboundRequest['ctx'],
    quotedId: string | undefined,
  ): Promise<{ device: PairedDevice; quoted: SandboxMessageRow | null }> {
    if (quotedId === undefined) return { device: await this.sandbox.paired(ctx), quoted: null };
    const found = await this.sandbox.network.deviceWithMessage(requirePhone(ctx), quotedId);
    return { device: this.sandbox.checkPaired(found?.device ?? null), quoted: found?.message ?? null };
  }
}
