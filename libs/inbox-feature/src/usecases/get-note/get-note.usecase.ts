import type { GetNoteRequest, Note } from '@mapi/contracts';
import { noteNotFound } from '../../chat-lookup';
import { rowPhones, visibleRow, type ChatReachCheck } from '../../member-reach';
import { mapNote } from '../../map-note';
import type { NoteRepository } from '../../repositories/note-repository';

/** GET /note/{note_id}: the note of a phone in reach; 404 otherwise (another organization's too). */
export class GetNote {
  constructor(
    private readonly notes: NoteRepository,
    private readonly reach: ChatReachCheck,
  ) {}

  async execute({ ctx, params }: GetNoteRequest): Promise<Note> {
    const row = await visibleRow(this.reach, ctx, await this.notes.find(ctx.org_id, params.note_id, rowPhones(ctx)));
    if (!row) throw noteNotFound();
    return mapNote(row);
  }
}
