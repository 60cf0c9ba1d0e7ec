import { randomUUID } from 'node:crypto';
import type { CreateNoteRequest, Note, RequestContext } from '@mapi/contracts';
import { writeEvents } from '@mapi/events';
import type { ChatLookup } from '../../chat-lookup';
import { createOnce, sameRequest, type CreateOnce } from '../../create-once';
import { isDuplicateKey } from '../../rows/pg-errors';
import { mapNote } from '../../map-note';
import type { NoteRepository } from '../../repositories/note-repository';
import { notAMessageOfTheChat } from '../create-ticket/create-ticket.usecase';

type CreateNoteAnswer = { success: true; message: string; data: Note };
const answer = (data: Note): CreateNoteAnswer => ({ success: true, message: 'Note created', data });

/**
 * POST /note/create: a private note on a chat within reach, kept by the inbox service only (nothing
 * goes to the phone's session or the network). It belongs to the phone that holds the chat for this
 * caller; reply_to must be a message of the chat. Row and note.created are one transaction. Under an
 * Idempotency-Key the note's id derives from the key: a repeat answers the note it made.
 */
export class CreateNote {
  constructor(
    private readonly notes: NoteRepository,
    private readonly chats: ChatLookup,
  ) {}

  async execute({ ctx, body, headers }: CreateNoteRequest): Promise<CreateNoteAnswer> {
    const once = createOnce(ctx, 'notes.create', headers, body);
    const made = once && (await this.notes.findMade(ctx.org_id, once.id));
    if (made) return answer(mapNote(sameRequest(made, once)));
    try {
      return answer(await this.create(ctx, body, once));
    } catch (error) {
      const raced = once && isDuplicateKey(error) ? await this.notes.findMade(ctx.org_id, once.id) : null;
      if (once && raced) return answer(mapNote(sameRequest(raced, once)));
      throw error;
    }
  }

  private async create(ctx: RequestContext, body: CreateNoteRequest['body'], once: CreateOnce | null): Promise<Note> {
    const chat = await this.chats.chat(ctx, body.chat_id);
    if (body.reply_to) {
      const replied = await this.chats.message(ctx, chat.phone_id, body.reply_to);
      if (!replied || replied.chat_id !== chat.chat_id) throw notAMessageOfTheChat('reply_to');
    }
    const orgPhone = chat.org_phone ?? (ctx.phone?.phone_id === chat.phone_id ? ctx.phone.org_phone : null) ?? '';
    const note = await this.notes.transaction(async (tx) => {
      const row = await this.notes.insert(tx, ctx.org_id, {
        note_id: once?.id ?? randomUUID(),
        phone_id: chat.phone_id,
        chat_id: chat.chat_id,
        org_phone: orgPhone,
        body: body.message,
        quoted_message_id: body.reply_to ?? null,
        performed_by: ctx.token_id,
        timestamp: new Date(),
        request_hash: once?.hash ?? null,
      });
      const data = mapNote(row);
      await writeEvents(tx, [{ type: 'note.created', org_id: ctx.org_id, phone_id: row.phone_id, data }]);
      return data;
    });
    return note;
  }
}
