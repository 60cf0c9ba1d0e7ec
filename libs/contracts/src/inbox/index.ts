import type { RouteContract } from '../http/define-route';
import { CreateNoteRoute } from './create-note/create-note.contract';
import { CreateTicketRoute } from './create-ticket/create-ticket.contract';
import { DeleteTicketRoute } from './delete-ticket/delete-ticket.contract';
import { GetNoteRoute } from './get-note/get-note.contract';
import { GetTicketRoute } from './get-ticket/get-ticket.contract';
import { ListChatNotesRoute } from './list-chat-notes/list-chat-notes.contract';
import { ListNotesRoute } from './list-notes/list-notes.contract';
import { ListTicketsRoute } from './list-tickets/list-tickets.contract';
import { UpdateTicketRoute } from './update-ticket/update-ticket.contract';
import { LABELS_ROUTES } from './labels-routes';
import { TASK_ROUTES } from './task/task-routes';

export * from './ticket/ticket-info.schema';
export * from './create-ticket/create-ticket.contract';
export * from './list-tickets/list-tickets.contract';
export * from './get-ticket/get-ticket.contract';
export * from './update-ticket/update-ticket.contract';
export * from './delete-ticket/delete-ticket.contract';
export * from './note/note-fields';
export * from './create-note/create-note.contract';
export * from './list-notes/list-notes.contract';
export * from './get-note/get-note.contract';
export * from './list-chat-notes/list-chat-notes.contract';
export * from './labels-routes';
export * from './task/task-routes';
export * from './import-labels/import-labels.contract';
export * from './import-custom-properties/import-custom-properties.contract';
export * from './import-tickets/import-tickets.contract';
export * from './import-notes/import-notes.contract';
export * from './import-tasks/import-tasks.contract';

/** The inbox service's public routes: tickets and private notes. */
export const INBOX_ROUTES: readonly RouteContract[] = [
  ListTicketsRoute,
  CreateTicketRoute,
  GetTicketRoute,
  UpdateTicketRoute,
  DeleteTicketRoute,
  CreateNoteRoute,
  ListNotesRoute,
  GetNoteRoute,
  ListChatNotesRoute,
  ...LABELS_ROUTES,
  ...TASK_ROUTES,
];
