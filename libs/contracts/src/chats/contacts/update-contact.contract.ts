import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ContactNameSchema, ContactSchema, LabelsSchema } from './contact.schema';
import { ContactIdParams } from './get-contact.contract';

const KEYS = ['contact_name', 'is_internal', 'labels'] as const;

export const UpdateContactBody = z
  .object({
    contact_name: ContactNameSchema.optional(),
    is_internal: z.boolean({ error: 'is_internal must be a boolean' }).optional(),
    labels: LabelsSchema.optional(),
  })
  .superRefine((b, ctx) => {
    if (KEYS.every((k) => b[k] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `Invalid body. At least one of the following keys are required: ${KEYS.join(', ')}`,
      });
    }
  });

export const UpdateContactRpc = defineRpc({
  subject: 'chats.v1.contacts.update',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, params: ContactIdParams, body: UpdateContactBody }),
  response: ContactSchema,
});
export type UpdateContactRequest = z.infer<typeof UpdateContactRpc.request>;

export const UpdateContactRoute = defineRoute({
  operationId: 'updateContact',
  method: 'PATCH',
  path: '/contacts/{contact_id}',
  tag: 'contacts',
  summary: "Update a contact's name, internal flag or labels",
  description:
    'contact_name is kept here only (not on the phone) and is never overwritten by the name the network gives (pushname). ' +
    "labels is a comma-separated string, case-insensitive, replacing the contact's labels ('' clears them). " +
    'At least one of contact_name, is_internal, labels. A contact the phones in reach have not seen is 404, nothing changed.',
  params: ContactIdParams,
  body: UpdateContactBody,
  phone: 'optional',
  rpc: UpdateContactRpc,
  successStatus: 200,
  response: ContactSchema,
});
