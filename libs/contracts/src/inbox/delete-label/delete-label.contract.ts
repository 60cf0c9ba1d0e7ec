import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { LabelIdParams, LabelSchema } from '../label/label.schema';

export const DeleteLabelRpc = defineRpc({
  subject: 'inbox.v1.labels.delete',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: LabelIdParams }),
  response: LabelSchema,
});
export type DeleteLabelRequest = z.infer<typeof DeleteLabelRpc.request>;

export const DeleteLabelRoute = defineRoute({
  operationId: 'deleteLabel',
  method: 'DELETE',
  path: '/labels/{label_id}',
  tag: 'chats',
  summary: 'Delete a label and remove it from everything that carries it',
  description:
    'Removes the label from every chat (chat_labels), ticket and contact (by name, for those types) of the organization, then ' +
    'deletes it; answers the deleted label. No chat.label.updated is emitted for the chats that lose it (as when a custom ' +
    'property is deleted). A label of another organization, or one already deleted, is 404. Console members need the admin role.',
  params: LabelIdParams,
  phone: 'none',
  role: 'admin',
  audit: { action: 'label.deleted', target: 'label_id' },
  rpc: DeleteLabelRpc,
  successStatus: 200,
  response: LabelSchema,
});
