import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ContactIdSchema, ContactSchema } from './contact.schema';

export const ContactIdParams = z.object({ contact_id: ContactIdSchema });

export const GetContactRpc = defineRpc({
  subject: 'chats.v1.contacts.get',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, params: ContactIdParams }),
  response: ContactSchema,
});
export type GetContactRequest = z.infer<typeof GetContactRpc.request>;

export const GetContactRoute = defineRoute({
  operationId: 'getContactById',
  method: 'GET',
  path: '/contacts/{contact_id}',
  tag: 'contacts',
  summary: 'Get one contact with its chat_ids',
  description:
    "The contact with chat_ids: its 1-1 chat and the groups it shares with the phones in reach (x-phone, or the token's phones). " +
    "A contact those phones have not seen — missing, or another organization's — is 404 NOT_FOUND_ERROR, the same answer in every case.",
  params: ContactIdParams,
  phone: 'optional',
  rpc: GetContactRpc,
  successStatus: 200,
  response: ContactSchema,
});
