import { randomUUID } from 'node:crypto';
import type { CreateNoteRequest, Note } from '@mapi/contracts';
import { writeEvents } from '@mapi/events';
import type { ChatLookup } from '../../chat-lookup';
import { mapNote } from '../../map-note';
import type { NoteRepository } from '../../repositories/note-repository';
import { notAMessageOfTheChat } from '../create-ticket/create-ticket.usecase';

/**
 * POST /note/create: a private note on a chat within reach, kept by the inbox service only (nothing
 * goes to the phone's session or the network). It belongs to the phone that holds the chat for this
 * caller; reply_to must be a message of the chat. Row and note.created are one transaction.
 */
export class CreateNote {
  constructor(
    private readonly notes: NoteRepository,
    private readonly chats: ChatLookup,
  ) {}

  async execute({ ctx, body }: CreateNoteRequest): Promise<{ success: true; message: string; data: Note }> {
    const chat = await this.chats.chat(ctx, body.chat_id);
    if (body.reply_to) {
      const replied = await this.chats.message(ctx, chat.phone_id, body.reply_to);
      if (!replied || replied.chat_id !== chat.chat_id) throw notAMessageOfTheChat('reply_to');
    }
    const orgPhone = chat.org_phone ?? (ctx.phone?.phone_id === chat.phone_id ? ctx.phone.org_phone : null) ?? '';
    const note = await this.notes.transaction(async (tx) => {
      const row = await this.notes.insert(tx, ctx.org_id, {
        note_id: randomUUID(),
        phone_id: chat.phone_id,
        chat_id: chat.chat_id,
        org_phone: orgPhone,
        body: body.message,
        quoted_message_id: body.reply_to ?? null,
        performed_by: ctx.token_id,
        timestamp: new Date(),
      });
      const data = mapNote(row);
      await writeEvents(tx, [{ type: 'note.created', org_id: ctx.org_id, phone_id: row.phone_id, data }]);
      return data;
    });
    return { success: true, message: 'Note created', data: note };
  }
}
