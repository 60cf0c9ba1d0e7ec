import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ContactIdSchema, LabelsSchema } from './contact.schema';

/** Most contacts one request relabels. */
export const MAX_LABELLED_CONTACTS = 1000;

export const UpdateContactLabelsBody = z.object({
  labels: LabelsSchema,
  contact_ids: z
    .array(ContactIdSchema, { error: 'contact_ids must be an array of contact ids' })
    .min(1, 'contact_ids must not be empty')
    .max(MAX_LABELLED_CONTACTS, `contact_ids must hold at most ${MAX_LABELLED_CONTACTS} ids`),
});

export const UpdateContactLabelsRpc = defineRpc({
  subject: 'chats.v1.contacts.labels',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, body: UpdateContactLabelsBody }),
  response: z.null(),
});
export type UpdateContactLabelsRequest = z.infer<typeof UpdateContactLabelsRpc.request>;

export const UpdateContactLabelsRoute = defineRoute({
  operationId: 'updateContactLabels',
  method: 'PATCH',
  path: '/contacts/labels',
  tag: 'contacts',
  summary: 'Replace the labels of several contacts',
  description:
    "labels (comma-separated, case-insensitive; '' clears them) replaces the labels of every contact of contact_ids. " +
    "All or nothing: when any id is not a contact the phones in reach have seen (missing, or another organization's), " +
    '404 NOT_FOUND_ERROR and nothing changes. Answers 204.',
  body: UpdateContactLabelsBody,
  phone: 'optional',
  rpc: UpdateContactLabelsRpc,
  successStatus: 204,
});
