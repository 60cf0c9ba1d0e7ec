import { CreateTaskRpc, DeleteTaskRpc, GetTaskRpc, ListTasksRpc, UpdateTaskRpc } from '@mapi/contracts';
import {
  CreateNoteRpc,
  CreateTicketRpc,
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
import type { MessageAttacher } from './message-attacher';
import { NoteRepository } from './repositories/note-repository';
import { TaskRepository } from './repositories/task-repository';
import { TicketRepository } from './repositories/ticket-repository';
import { CreateNote } from './usecases/create-note/create-note.usecase';
import { CreateTicket } from './usecases/create-ticket/create-ticket.usecase';
import { GetNote } from './usecases/get-note/get-note.usecase';
import { GetTicket } from './usecases/get-ticket/get-ticket.usecase';
import { ListChatNotes } from './usecases/list-chat-notes/list-chat-notes.usecase';
import { ListNotes } from './usecases/list-notes/list-notes.usecase';
import { ListTickets } from './usecases/list-tickets/list-tickets.usecase';
import { UpdateTicket } from './usecases/update-ticket/update-ticket.usecase';
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
}

const serve = rpcHandler<InboxDeps>();

/** What the inbox service answers: one line per operation, its contract and its use case. */
export const INBOX_HANDLERS = [
  serve(CreateTicketRpc, (d) => new CreateTicket(new TicketRepository(d.prisma), d.chats, d.attacher)),
  serve(ListTicketsRpc, (d) => new ListTickets(new TicketRepository(d.prisma))),
  serve(GetTicketRpc, (d) => new GetTicket(new TicketRepository(d.prisma), d.chats)),
  serve(UpdateTicketRpc, (d) => new UpdateTicket(new TicketRepository(d.prisma), d.chats)),
  serve(CreateNoteRpc, (d) => new CreateNote(new NoteRepository(d.prisma), d.chats)),
  serve(ListNotesRpc, (d) => new ListNotes(new NoteRepository(d.prisma))),
  serve(GetNoteRpc, (d) => new GetNote(new NoteRepository(d.prisma))),
  serve(ListChatNotesRpc, (d) => new ListChatNotes(new NoteRepository(d.prisma))),
  serve(CreateTaskRpc, (d) => new CreateTask(new TaskRepository(d.prisma), new TicketRepository(d.prisma), d.chats)),
  serve(ListTasksRpc, (d) => new ListTasks(new TaskRepository(d.prisma))),
  serve(GetTaskRpc, (d) => new GetTask(new TaskRepository(d.prisma))),
  serve(UpdateTaskRpc, (d) => new UpdateTask(new TaskRepository(d.prisma))),
  serve(DeleteTaskRpc, (d) => new DeleteTask(new TaskRepository(d.prisma))),
];
