import { Errors, isGroupChatId, normalizeChatId, type SandboxInboundRequest } from '@mapi/contracts';
import { contact, newUniqueId } from '../../sandbox/sandbox-network';
import type { SandboxPhones } from '../../sandbox/sandbox-phones';

/** POST /sandbox/messages: a message arrives at the paired phone (or is typed on it, from_me). */
export class SandboxDeliver {
  constructor(private readonly sandbox: SandboxPhones) {}

  async execute({ ctx, body }: SandboxInboundRequest) {
    const device = await this.sandbox.paired(ctx);
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
    });
    this.sandbox.notify(device.phone_id, 'messages');
    return { chat_id: chatId, unique_id: uniqueId, message_id: `${body.from_me}_${chatId}_${uniqueId}` };
  }
}
