import type { EditMessageRequest } from '@mapi/contracts';
import type { SessionCommands } from '@mapi/events';
import { isPoll, messageInReach, networkKey, refused } from '../../messages/acting-message';
import type { MessageRefRepository } from '../../repositories/message-ref-repository';

/** The network allows an edit for 15 minutes after sending. */
export const EDIT_WINDOW_MS = 15 * 60_000;
const EDITABLE = new Set(['chat', 'image', 'video', 'document']);

/**
 * POST /message/{message_id}/edit: the phone that holds the message edits it through its session.
 * The network echoes the edit back (the phone's own messages.update), and ingestion stores it (body,
 * prev_body) and writes message.updated with the old body in previous_attributes. Editing to the
 * text it already has answers 204 and changes nothing.
 */
export class EditMessage {
  constructor(
    private readonly messages: MessageRefRepository,
    private readonly sessions: SessionCommands,
    private readonly now: () => number = Date.now,
  ) {}

  async execute({ ctx, params, body }: EditMessageRequest): Promise<null> {
    const row = await messageInReach(this.messages, ctx, params.message_id);
    const ref = params.message_id;
    if (!row.from_me) throw refused(ref, 'Only a message the phone sent can be edited');
    if (row.is_deleted) throw refused(ref, 'A deleted message cannot be edited');
    if (isPoll(row) || !EDITABLE.has(row.message_type))
      throw refused(ref, `A ${row.message_type} message cannot be edited (text, or a media caption, only)`);
    if (this.now() - row.timestamp.getTime() > EDIT_WINDOW_MS)
      throw refused(ref, 'A message can be edited only within 15 minutes of sending');
    if (row.body === body.edited_body) return null;
    await this.sessions.require(row.phone_id, { cmd: 'message-edit', key: networkKey(row), body: body.edited_body });
    return null;
  }
}
