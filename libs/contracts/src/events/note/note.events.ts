import { defineEvent } from '../define-event';
import { NoteSchema } from './note.schema';

export const NoteCreatedEvent = defineEvent({
  name: 'note.created',
  subject: 'events.v1.note.created',
  summary: 'A note was left on a chat (POST /note/create).',
  data: NoteSchema,
});
