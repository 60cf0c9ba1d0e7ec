import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ListNotesQuery, ListNotesResponse } from '../note/note-fields';

export const ChatNotesParams = z.object({ chat_id: ChatIdSchema });

export const ListChatNotesRpc = defineRpc({
  subject: 'inbox.v1.notes.list-by-chat',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: ChatNotesParams, query: ListNotesQuery }),
  response: ListNotesResponse,
});
export type ListChatNotesRequest = z.infer<typeof ListChatNotesRpc.request>;

export const ListChatNotesRoute = defineRoute({
  operationId: 'getNotesByChat',
  method: 'GET',
  path: '/chats/{chat_id}/notes',
  tag: 'chats',
  summary: 'List the private notes of a chat',
  description: "GET /note narrowed to one chat. A chat with no notes within reach (or another organization's) answers an empty page.",
  params: ChatNotesParams,
  query: ListNotesQuery,
  phone: 'optional',
  rpc: ListChatNotesRpc,
  successStatus: 200,
  response: ListNotesResponse,
});
