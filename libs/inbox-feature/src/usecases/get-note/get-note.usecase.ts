import type { GetNoteRequest, Note } from '@mapi/contracts';
import { noteNotFound, phonesInReach } from '../../chat-lookup';
import { mapNote } from '../../map-note';
import type { NoteRepository } from '../../repositories/note-repository';

/** GET /note/{note_id}: the note of a phone in reach; 404 otherwise (another organization's too). */
export class GetNote {
  constructor(private readonly notes: NoteRepository) {}

  async execute({ ctx, params }: GetNoteRequest): Promise<Note> {
    const row = await this.notes.find(ctx.org_id, params.note_id, phonesInReach(ctx));
    if (!row) throw noteNotFound();
    return mapNote(row);
  }
}
