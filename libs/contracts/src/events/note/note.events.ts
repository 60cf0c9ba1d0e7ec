import { defineEvent } from '../define-event';
import { NoteSchema } from './note.schema';

export const NoteCreatedEvent = defineEvent({
  name: 'note.created',
  subject: 'events.v1.note.created',
  summary: 'A member left a note on a chat. Not emitted by this service yet.',
  data: NoteSchema,
});
