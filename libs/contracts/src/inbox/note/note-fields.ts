import { z } from 'zod';
import { NoteSchema } from '../../events/note/note.schema';
import { timeRangeFields, pageFields, refineTimeRange } from '../../chats/paging/paging';

/** A listing of notes: `from`/`to`/`count` as GET messages answers, the time bounds used (null when not given), the notes. */
export const ListNotesResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  notes: z.array(NoteSchema),
});
export type ListNotesResponse = z.infer<typeof ListNotesResponse>;

/** offset/limit (spec 4.1) and start_time/end_time (inclusive) on the note's timestamp. */
export const ListNotesQuery = z.object({ ...pageFields, ...timeRangeFields }).superRefine(refineTimeRange);
export type ListNotesQuery = z.infer<typeof ListNotesQuery>;

/** `note_id`: the note's message_id. */
export const NoteIdParams = z.object({ note_id: z.string().min(1, 'note_id must not be empty').max(200, 'note_id is too long') });
