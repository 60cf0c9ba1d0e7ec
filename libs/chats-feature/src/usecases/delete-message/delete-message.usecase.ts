import type { DeleteMessageRequest } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import { messageInReach, networkKey, refused } from '../../messages/acting-message';
import type { MessageRefRepository } from '../../repositories/message-ref-repository';

/**
 * POST /message/{message_id}/delete: the phone deletes its message for everyone through its
 * session. The network echoes the deletion back; ingestion sets is_deleted and writes
 * message.deleted. A message already deleted answers 204 and changes nothing.
 */
export class DeleteMessage {
  constructor(
    private readonly messages: MessageRefRepository,
    private readonly sessions: SessionCommands,
  ) {}

  async execute({ ctx, params }: DeleteMessageRequest): Promise<null> {
    const row = await messageInReach(this.messages, ctx, params.message_id);
    if (!row.from_me) throw refused(params.message_id, 'Only a message the phone sent can be deleted for everyone');
    if (row.is_deleted) return null;
    await this.sessions.require(row.phone_id, { cmd: 'message-delete', key: networkKey(row) });
    return null;
  }
}
