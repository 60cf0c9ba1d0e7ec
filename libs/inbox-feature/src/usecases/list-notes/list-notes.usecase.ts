import { pagePositions, type ListNotesRequest, type ListNotesResponse } from '@mapi/contracts';
import { phonesInReach } from '../../chat-lookup';
import { mapNote } from '../../map-note';
import type { NoteFilter, NoteRepository } from '../../repositories/note-repository';

/** A page of notes of the phones in reach, newest first, within the time bounds (shared by both listings). */
export async function notesPage(notes: NoteRepository, ctx: ListNotesRequest['ctx'], query: ListNotesRequest['query'], chatId?: string): Promise<ListNotesResponse> {
  const { offset, limit, start_time, end_time } = query;
  const filter: NoteFilter = { chat_id: chatId, start_time, end_time };
  const rows = await notes.list(ctx.org_id, phonesInReach(ctx), filter, offset, limit);
  return { ...pagePositions(offset, rows.length), start_time: start_time ?? null, end_time: end_time ?? null, notes: rows.map(mapNote) };
}

/** GET /note: the organization's notes of the phones in reach. */
export class ListNotes {
  constructor(private readonly notes: NoteRepository) {}

  execute({ ctx, query }: ListNotesRequest): Promise<ListNotesResponse> {
    return notesPage(this.notes, ctx, query);
  }
}
