import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MAX_PAGE_LIMIT } from '../../chats/paging/paging';
import { ListNotesQuery, ListNotesResponse } from '../note/note-fields';

export const ListNotesRpc = defineRpc({
  subject: 'inbox.v1.notes.list',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, query: ListNotesQuery }),
  response: ListNotesResponse,
});
export type ListNotesRequest = z.infer<typeof ListNotesRpc.request>;

export const ListNotesRoute = defineRoute({
  operationId: 'getNotes',
  method: 'GET',
  path: '/note',
  tag: 'chats',
  summary: 'List private notes',
  description:
    "The organization's notes of the phones within reach (x-phone, else the token's phones), newest first, as " +
    '`tbl_chat_notes` rows; start_time/end_time bound their timestamp. ' +
    `offset defaults to 0, limit to ${MAX_PAGE_LIMIT}, its maximum (inclusive).`,
  query: ListNotesQuery,
  phone: 'optional',
  rpc: ListNotesRpc,
  successStatus: 200,
  response: ListNotesResponse,
});
