import { sendUniqueId, type IngestMessage } from '@mapi/contracts';
import type { MessageActionsPort, MessageKey, OutgoingContent } from '../connector/phone-connector';
import type { SandboxNetwork } from './sandbox-network';

/** How long a pin lasts: 7 days, the network's default (as the Baileys connector asks for). */
const PIN_SECONDS = 604_800;

/**
 * A sandbox phone's actions on messages, as the network would take them: the change is written to
 * the network (sandbox_messages and sandbox_changes), then reported back to the phone as its own
 * `messages.update`, as a real network echoes a phone's edits, deletions and reactions made on the
 * phone. The network refuses what a real one refuses: editing or deleting another person's message,
 * acting on a message it does not hold.
 */
export class SandboxMessageActions implements MessageActionsPort {
  constructor(
    private readonly phoneId: string,
    private readonly network: SandboxNetwork,
    private readonly me: () => Promise<string>,
    private readonly nudge: () => void,
  ) {}

  private async held(key: MessageKey) {
    const row = await this.network.message(this.phoneId, key.unique_id);
    if (!row || row.chat_id !== key.chat_id) throw new Error(`the network has no message ${key.unique_id} in ${key.chat_id}`);
    return row;
  }

  private ref(key: MessageKey) {
    return { phone_id: this.phoneId, chat_id: key.chat_id, unique_id: key.unique_id, from_me: key.from_me };
  }

  async editMessage(key: MessageKey, body: string): Promise<void> {
    const row = await this.held(key);
    if (!row.from_me) throw new Error("only the phone's own messages can be edited");
    if (row.is_deleted) throw new Error('a deleted message cannot be edited');
    if (await this.network.changes.edit(this.ref(key), body)) this.nudge();
  }

  async deleteMessage(key: MessageKey): Promise<void> {
    const row = await this.held(key);
    if (!row.from_me) throw new Error("only the phone's own messages can be deleted for everyone");
    if (await this.network.changes.delete(this.ref(key))) this.nudge();
  }

  async reactToMessage(key: MessageKey, reaction: string): Promise<void> {
    await this.held(key);
    await this.network.changes.react(this.ref(key), await this.me(), reaction);
    this.nudge();
  }

  /** Pins (for the network's default 7 days) or unpins the message; the network echoes it to the phone. */
  async pinMessage(key: MessageKey, pin: boolean): Promise<void> {
    await this.held(key);
    await this.network.changes.pin(this.ref(key), pin, PIN_SECONDS);
    this.nudge();
  }

  async forwardMessage(
    key: MessageKey,
    chatId: string,
    content: OutgoingContent,
    sentMessageId: string,
  ): Promise<{ unique_id: string; timestamp: string; duplicate: boolean }> {
    const earlier = await this.network.sentMessage(this.phoneId, sentMessageId);
    if (earlier) return { unique_id: earlier.unique_id, timestamp: earlier.timestamp.toISOString(), duplicate: true };
    const source = await this.held(key);
    const m: IngestMessage = {
      chat_id: chatId,
      unique_id: sendUniqueId(this.phoneId, sentMessageId),
      from_me: true,
      sender_phone: await this.me(),
      body: content.text ?? source.body,
      message_type: source.message_type,
      timestamp: new Date().toISOString(),
      ack: 1,
      media: (source.media as IngestMessage['media']) ?? null,
      sent_message_id: sentMessageId,
      is_forwarded: true,
    };
    await this.network.addMessage(this.phoneId, m);
    this.nudge();
    return { unique_id: m.unique_id, timestamp: m.timestamp, duplicate: false };
  }
}
