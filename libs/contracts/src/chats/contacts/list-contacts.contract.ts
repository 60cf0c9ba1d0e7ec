import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MAX_PAGE_LIMIT, pageFields } from '../paging/paging';
import { ContactSchema } from './contact.schema';

export const ListContactsQuery = z.object({ ...pageFields });

export const ListContactsResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  contacts: z.array(ContactSchema),
});
export type ListContactsResponse = z.infer<typeof ListContactsResponse>;

export const ListContactsRpc = defineRpc({
  subject: 'chats.v1.contacts.list',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, query: ListContactsQuery }),
  response: ListContactsResponse,
});
export type ListContactsRequest = z.infer<typeof ListContactsRpc.request>;

export const ListContactsRoute = defineRoute({
  operationId: 'getContacts',
  method: 'GET',
  path: '/contacts',
  tag: 'contacts',
  summary: 'List contacts',
  description:
    "The organization's contacts, ordered by contact_id: learned from what its phones see (senders and 1-1 chat partners) " +
    'and created through the API. With x-phone or a scoped token, only the contacts those phones have seen or created. ' +
    `offset defaults to 0, limit to ${MAX_PAGE_LIMIT}, its maximum (inclusive).`,
  query: ListContactsQuery,
  phone: 'optional',
  rpc: ListContactsRpc,
  successStatus: 200,
  response: ListContactsResponse,
});
