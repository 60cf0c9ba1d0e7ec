import type { GetMessageRequest, Message } from '@mapi/contracts';
import { messageInReach } from '../../messages/acting-message';
import { mapMessage } from '../../messages/map-message';
import type { MessageRefRepository } from '../../repositories/message-ref-repository';

/**
 * GET /message/{message_id}: the message by its message_id or its send's queue id, as a phone within
 * reach holds it. A queue id whose job is still waiting is 404 (the public client: "if the message is
 * still pending in the queue, queue_id will not return a value"); the job itself is GET /message/queues.
 */
export class GetMessage {
  constructor(private readonly messages: MessageRefRepository) {}

  async execute({ ctx, params }: GetMessageRequest): Promise<Message> {
    return mapMessage(await messageInReach(this.messages, ctx, params.message_id));
  }
}
