import { z } from 'zod';
import { atLeastOneOf } from '../../common/at-least-one';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { LabelColorSchema, LabelIdParams, LabelNameSchema, LabelSchema } from '../label/label.schema';

const KEYS = ['name', 'color'] as const;

/** At least one of name, color; the type cannot change. */
export const UpdateLabelBody = z
  .object({ name: LabelNameSchema.optional(), color: LabelColorSchema.optional() })
  .superRefine(atLeastOneOf(KEYS));
export type UpdateLabelBody = z.infer<typeof UpdateLabelBody>;

export const UpdateLabelRpc = defineRpc({
  subject: 'inbox.v1.labels.update',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: LabelIdParams, body: UpdateLabelBody }),
  response: LabelSchema,
});
export type UpdateLabelRequest = z.infer<typeof UpdateLabelRpc.request>;

export const UpdateLabelRoute = defineRoute({
  operationId: 'updateLabel',
  method: 'PATCH',
  path: '/labels/{label_id}',
  tag: 'chats',
  summary: 'Rename a label or change its colour',
  description:
    'At least one of name, color. A rename follows the label everywhere it is held: chats keep it by id and GET /chats?label= ' +
    'finds them by the new name (no longer by the old); tickets and contacts, which keep label names, have the name replaced. ' +
    "A name another label of the same type has is 422 on name. No event is emitted (the chats' label_ids do not change). " +
    'A label of another organization is 404. Console members need the admin role.',
  params: LabelIdParams,
  body: UpdateLabelBody,
  phone: 'none',
  role: 'admin',
  audit: { action: 'label.updated', target: 'label_id' },
  rpc: UpdateLabelRpc,
  successStatus: 200,
  response: LabelSchema,
});
