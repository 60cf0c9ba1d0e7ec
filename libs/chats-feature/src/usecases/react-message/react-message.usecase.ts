import type { ReactMessageRequest } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import { messageInReach, networkKey, refused } from '../../messages/acting-message';
import type { MessageRefRepository } from '../../repositories/message-ref-repository';

/**
 * POST /message/{message_id}/react: the phone reacts through its session ('' takes its reaction
 * back). The network echoes the reaction back; ingestion stores it (has_reaction, GET /reactions) and
 * writes reaction.created or reaction.updated. The same reaction again changes nothing (the network
 * gives it the same id, which ingestion takes as a repeat).
 */
export class ReactMessage {
  constructor(
    private readonly messages: MessageRefRepository,
    private readonly sessions: SessionCommands,
  ) {}

  async execute({ ctx, params, body }: ReactMessageRequest): Promise<null> {
    const row = await messageInReach(this.messages, ctx, params.message_id);
    if (row.is_deleted) throw refused(params.message_id, 'A deleted message cannot be reacted to');
    // refused by the network (a Cloud API phone's 24-hour window closed): the 422 naming the rule
    await this.sessions.require(row.phone_id, { cmd: 'message-react', key: networkKey(row), reaction: body.reaction }, (message) =>
      refused(params.message_id, message),
    );
    return null;
  }
}
