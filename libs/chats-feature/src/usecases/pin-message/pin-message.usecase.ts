import type { PinMessageRequest } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import { messageInReach, networkKey, refused } from '../../messages/acting-message';
import type { MessageRefRepository } from '../../repositories/message-ref-repository';

/**
 * POST /message/{message_id}/pin: the phone pins or unpins the message in its chat through its
 * session. The chat records the pin when the network echoes it (ingest kind `pin`, apply-pin.ts:
 * pinned_messages and message.updated), as for pins made on the phone or by other participants.
 */
export class PinMessage {
  constructor(
    private readonly messages: MessageRefRepository,
    private readonly sessions: SessionCommands,
  ) {}

  async execute({ ctx, params, body }: PinMessageRequest): Promise<null> {
    const row = await messageInReach(this.messages, ctx, params.message_id);
    if (row.is_deleted) throw refused(params.message_id, 'A deleted message cannot be pinned');
    await this.sessions.require(row.phone_id, { cmd: 'message-pin', key: networkKey(row), pin: body.pin });
    return null;
  }
}
