import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ContactIdSchema, ContactNameSchema, ContactSchema, LabelsSchema } from './contact.schema';

export const CreateContactBody = z.object({
  contact_name: ContactNameSchema,
  contact_id: ContactIdSchema,
  is_internal: z.boolean({ error: 'is_internal must be a boolean' }).optional(),
  labels: LabelsSchema.optional(),
});

export const CreateContactRpc = defineRpc({
  subject: 'chats.v1.contacts.create',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, body: CreateContactBody }),
  response: ContactSchema,
});
export type CreateContactRequest = z.infer<typeof CreateContactRpc.request>;

export const CreateContactRoute = defineRoute({
  operationId: 'createContact',
  method: 'POST',
  path: '/contacts/create',
  tag: 'contacts',
  summary: 'Create a contact',
  description:
    'Creates the contact with its name (kept here only, not on the phone), or names an existing one: a retry answers the same contact. ' +
    "It belongs to the x-phone phone, else to the token's phones (an unscoped token without x-phone: to the organization, " +
    'seen by unscoped requests only, until a phone sees it). is_internal and labels are set when given.',
  body: CreateContactBody,
  phone: 'optional',
  rpc: CreateContactRpc,
  successStatus: 200,
  response: ContactSchema,
});
