import { pagePositions, type ListNotesRequest, type ListNotesResponse } from '@mapi/contracts';
import { rowPhones, visiblePage, type ChatReachCheck } from '../../member-reach';
import { mapNote } from '../../map-note';
import type { NoteFilter, NoteRepository } from '../../repositories/note-repository';

/** A page of notes of the phones in reach, newest first, within the time bounds (shared by both listings). */
export async function notesPage(
  notes: NoteRepository,
  reach: ChatReachCheck,
  ctx: ListNotesRequest['ctx'],
  query: ListNotesRequest['query'],
  chatId?: string,
): Promise<ListNotesResponse> {
  const { offset, limit, start_time, end_time } = query;
  const filter: NoteFilter = { chat_id: chatId, start_time, end_time };
  const rows = await visiblePage(reach, ctx, (o, l) => notes.list(ctx.org_id, rowPhones(ctx), filter, o, l), offset, limit);
  return { ...pagePositions(offset, rows.length), start_time: start_time ?? null, end_time: end_time ?? null, notes: rows.map(mapNote) };
}

/** GET /note: the organization's notes of the phones in reach. */
export class ListNotes {
  constructor(
    private readonly notes: NoteRepository,
    private readonly reach: ChatReachCheck,
  ) {}

  execute({ ctx, query }: ListNotesRequest): Promise<ListNotesResponse> {
    return notesPage(this.notes, this.reach, ctx, query);
  }
}
