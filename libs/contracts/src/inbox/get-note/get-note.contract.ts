import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { NoteSchema } from '../../events/note/note.schema';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { NoteIdParams } from '../note/note-fields';

export const GetNoteRpc = defineRpc({
  subject: 'inbox.v1.notes.get',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: NoteIdParams }),
  response: NoteSchema,
});
export type GetNoteRequest = z.infer<typeof GetNoteRpc.request>;

export const GetNoteRoute = defineRoute({
  operationId: 'getNoteById',
  method: 'GET',
  path: '/note/{note_id}',
  tag: 'chats',
  summary: 'Get a private note',
  description:
    "The note by its note_id (its message_id). A note of a phone out of reach, a missing one and another organization's are 404.",
  params: NoteIdParams,
  phone: 'optional',
  rpc: GetNoteRpc,
  successStatus: 200,
  response: NoteSchema,
});
