import type { ListChatNotesRequest, ListNotesResponse } from '@mapi/contracts';
import type { ChatReachCheck } from '../../member-reach';
import type { NoteRepository } from '../../repositories/note-repository';
import { notesPage } from '../list-notes/list-notes.usecase';

/** GET /chats/{chat_id}/notes: GET /note narrowed to one chat (an empty page when it has none in reach). */
export class ListChatNotes {
  constructor(
    private readonly notes: NoteRepository,
    private readonly reach: ChatReachCheck,
  ) {}

  execute({ ctx, params, query }: ListChatNotesRequest): Promise<ListNotesResponse> {
    return notesPage(this.notes, this.reach, ctx, query, params.chat_id);
  }
}
