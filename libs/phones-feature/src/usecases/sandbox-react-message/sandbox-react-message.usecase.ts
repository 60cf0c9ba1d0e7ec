import { Errors, isGroupChatId, type SandboxReactRequest } from '@mapi/contracts';
import { messageIdOf, pairedWithMessage } from '../../sandbox/received-message';
import { contact } from '../../sandbox/sandbox-network';
import type { SandboxPhones } from '../../sandbox/sandbox-phones';

/**
 * POST /sandbox/messages/react: another person reacts to a message of the phone's chat ('' takes the
 * reaction back); reaction.created or reaction.updated follows. In a group the person must be a
 * participant; in an individual chat it is the chat's person.
 */
export class SandboxReactMessage {
  constructor(private readonly sandbox: SandboxPhones) {}

  async execute({ ctx, body }: SandboxReactRequest) {
    const { device, message } = await pairedWithMessage(this.sandbox, ctx, body.unique_id);
    if (message.is_deleted) throw Errors.validation({ 'body.unique_id': { message: 'the message was deleted' } });
    const sender = await this.reactor(message.chat_id, body.from);
    if (sender === contact(device.number))
      throw Errors.validation({ 'body.from': { message: 'that is the phone itself: react with POST /message/{message_id}/react' } });
    const reaction_id = await this.sandbox.network.changes.react(message, sender, body.reaction);
    this.sandbox.notify(device.phone_id, 'changes');
    return { unique_id: message.unique_id, message_id: messageIdOf(message), reaction_id, sender_phone: sender };
  }

  private async reactor(chatId: string, from: string | undefined): Promise<string> {
    if (!isGroupChatId(chatId)) {
      if (from && contact(from) !== chatId)
        throw Errors.validation({ 'body.from': { message: "in an individual chat only the chat's person can react" } });
      return chatId;
    }
    if (!from) throw Errors.validation({ 'body.from': { message: 'from is required in a group chat' } });
    const group = await this.sandbox.network.group(chatId);
    if (!group?.participants.some((p) => p.id === contact(from)))
      throw Errors.validation({ 'body.from': { message: 'from is not a participant of this group' } });
    return contact(from);
  }
}
