import { CreateTaskRpc, DeleteTaskRpc, GetTaskRpc, ListTasksRpc, UpdateTaskRpc, type PhoneDirectory } from '@mapi/contracts';
import { ImportCustomPropertiesRpc, ImportLabelsRpc, ImportNotesRpc, ImportTasksRpc, ImportTicketsRpc } from '@mapi/contracts';
import { ImportCustomProperties } from './usecases/import-custom-properties/import-custom-properties.usecase';
import { ImportLabels } from './usecases/import-labels/import-labels.usecase';
import { ImportNotes } from './usecases/import-notes/import-notes.usecase';
import { ImportTasks } from './usecases/import-tasks/import-tasks.usecase';
import { ImportTickets } from './usecases/import-tickets/import-tickets.usecase';
import {
  CreateCustomPropertyRpc,
  CreateLabelRpc,
  DeleteCustomPropertyRpc,
  DeleteLabelRpc,
  ListCustomPropertiesRpc,
  ListLabelsRpc,
  UpdateChatLabelsRpc,
  UpdateChatRpc,
  UpdateCustomPropertyRpc,
  UpdateLabelRpc,
} from '@mapi/contracts';
import {
  CreateNoteRpc,
  CreateTicketRpc,
  DeleteTicketRpc,
  GetNoteRpc,
  GetTicketRpc,
  ListChatNotesRpc,
  ListNotesRpc,
  ListTicketsRpc,
  UpdateTicketRpc,
} from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { rpcHandler } from '@mapi/platform';
import type { ChatLookup } from './chat-lookup';
import type { ChatProperties } from './chat-properties';
import type { ChatReachCheck } from './member-reach';
import type { MessageAttacher } from './message-attacher';
import { NoteRepository } from './repositories/note-repository';
import { TaskRepository } from './repositories/task-repository';
import { TicketRepository } from './repositories/ticket-repository';
import { CreateNote } from './usecases/create-note/create-note.usecase';
import { CreateTicket } from './usecases/create-ticket/create-ticket.usecase';
import { DeleteTicket } from './usecases/delete-ticket/delete-ticket.usecase';
import { GetNote } from './usecases/get-note/get-note.usecase';
import { GetTicket } from './usecases/get-ticket/get-ticket.usecase';
import { ListChatNotes } from './usecases/list-chat-notes/list-chat-notes.usecase';
import { ListNotes } from './usecases/list-notes/list-notes.usecase';
import { ListTickets } from './usecases/list-tickets/list-tickets.usecase';
import { UpdateTicket } from './usecases/update-ticket/update-ticket.usecase';
import { CustomPropertyRepository } from './repositories/custom-property-repository';
import { LabelRepository } from './repositories/label-repository';
import { CreateCustomProperty } from './usecases/create-custom-property/create-custom-property.usecase';
import { CreateLabel } from './usecases/create-label/create-label.usecase';
import { DeleteLabel } from './usecases/delete-label/delete-label.usecase';
import { UpdateLabel } from './usecases/update-label/update-label.usecase';
import { DeleteCustomProperty } from './usecases/delete-custom-property/delete-custom-property.usecase';
import { ListCustomProperties } from './usecases/list-custom-properties/list-custom-properties.usecase';
import { ListLabels } from './usecases/list-labels/list-labels.usecase';
import { UpdateChatLabels } from './usecases/update-chat-labels/update-chat-labels.usecase';
import { UpdateChat } from './usecases/update-chat/update-chat.usecase';
import { UpdateCustomProperty } from './usecases/update-custom-property/update-custom-property.usecase';
import { CreateTask } from './usecases/create-task/create-task.usecase';
import { DeleteTask } from './usecases/delete-task/delete-task.usecase';
import { GetTask } from './usecases/get-task/get-task.usecase';
import { ListTasks } from './usecases/list-tasks/list-tasks.usecase';
import { UpdateTask } from './usecases/update-task/update-task.usecase';

export interface InboxDeps {
  prisma: PrismaClient;
  /** Chats and messages, read through the chats service's RPCs (its tables are its own). */
  chats: ChatLookup;
  /** Marks a quoted message as attached to its ticket, in the chats service. */
  attacher: MessageAttacher;
  /** Chat labels and custom property values, kept by the chats service (its chat_properties, chat_labels). */
  chatProperties: ChatProperties;
  /** A member's reach over the inbox's rows of chats, decided by the chats service (member-reach.ts). */
  reach: ChatReachCheck;
  /** The organization's phones (the phones service's directory), for imported rows' phones. */
  phones: PhoneDirectory;
}

const serve = rpcHandler<InboxDeps>();

/** What the inbox service answers: one line per operation, its contract and its use case. */
export const INBOX_HANDLERS = [
  serve(
    CreateTicketRpc,
    (d) => new CreateTicket(new TicketRepository(d.prisma), d.chats, d.attacher, new CustomPropertyRepository(d.prisma)),
  ),
  serve(ListTicketsRpc, (d) => new ListTickets(new TicketRepository(d.prisma), d.reach, new CustomPropertyRepository(d.prisma))),
  serve(GetTicketRpc, (d) => new GetTicket(new TicketRepository(d.prisma), d.chats, d.reach)),
  serve(UpdateTicketRpc, (d) => new UpdateTicket(new TicketRepository(d.prisma), d.chats, d.reach, new CustomPropertyRepository(d.prisma))),
  serve(DeleteTicketRpc, (d) => new DeleteTicket(new TicketRepository(d.prisma), d.chats, d.reach)),
  serve(CreateNoteRpc, (d) => new CreateNote(new NoteRepository(d.prisma), d.chats)),
  serve(ListNotesRpc, (d) => new ListNotes(new NoteRepository(d.prisma), d.reach)),
  serve(GetNoteRpc, (d) => new GetNote(new NoteRepository(d.prisma), d.reach)),
  serve(ListChatNotesRpc, (d) => new ListChatNotes(new NoteRepository(d.prisma), d.reach)),
  // labels and custom properties (issue 17 item 5)
  serve(ListLabelsRpc, (d) => new ListLabels(new LabelRepository(d.prisma))),
  serve(CreateLabelRpc, (d) => new CreateLabel(new LabelRepository(d.prisma))),
  serve(UpdateLabelRpc, (d) => new UpdateLabel(new LabelRepository(d.prisma), d.chatProperties)),
  serve(DeleteLabelRpc, (d) => new DeleteLabel(new LabelRepository(d.prisma), d.chatProperties)),
  serve(ListCustomPropertiesRpc, (d) => new ListCustomProperties(new CustomPropertyRepository(d.prisma))),
  serve(CreateCustomPropertyRpc, (d) => new CreateCustomProperty(new CustomPropertyRepository(d.prisma))),
  serve(UpdateCustomPropertyRpc, (d) => new UpdateCustomProperty(new CustomPropertyRepository(d.prisma))),
  serve(DeleteCustomPropertyRpc, (d) => new DeleteCustomProperty(new CustomPropertyRepository(d.prisma), d.chatProperties)),
  serve(UpdateChatLabelsRpc, (d) => new UpdateChatLabels(new LabelRepository(d.prisma), d.chatProperties)),
  serve(
    UpdateChatRpc,
    (d) => new UpdateChat(new LabelRepository(d.prisma), new CustomPropertyRepository(d.prisma), d.chatProperties, d.chats),
  ),
  serve(CreateTaskRpc, (d) => new CreateTask(new TaskRepository(d.prisma), new TicketRepository(d.prisma), d.chats)),
  serve(ListTasksRpc, (d) => new ListTasks(new TaskRepository(d.prisma), d.reach)),
  serve(GetTaskRpc, (d) => new GetTask(new TaskRepository(d.prisma), d.reach)),
  serve(UpdateTaskRpc, (d) => new UpdateTask(new TaskRepository(d.prisma), d.reach)),
  serve(DeleteTaskRpc, (d) => new DeleteTask(new TaskRepository(d.prisma), d.reach)),
  // the importer's writes (docs/services/inbox.md, "Import")
  serve(ImportLabelsRpc, (d) => new ImportLabels(d.prisma, d.chatProperties)),
  serve(ImportCustomPropertiesRpc, (d) => new ImportCustomProperties(d.prisma)),
  serve(ImportTicketsRpc, (d) => new ImportTickets(d.prisma, d.chats, d.phones)),
  serve(ImportNotesRpc, (d) => new ImportNotes(d.prisma, d.chats, d.phones)),
  serve(ImportTasksRpc, (d) => new ImportTasks(d.prisma, d.chats)),
];
