import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { LabelColorSchema, LabelNameSchema, LabelSchema, LabelTypeSchema } from '../label/label.schema';

export const CreateLabelBody = z.object({
  name: LabelNameSchema,
  color: LabelColorSchema.optional(),
  type: LabelTypeSchema.optional(),
});

export const CreateLabelRpc = defineRpc({
  subject: 'inbox.v1.labels.create',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, body: CreateLabelBody }),
  response: LabelSchema,
});
export type CreateLabelRequest = z.infer<typeof CreateLabelRpc.request>;

export const CreateLabelRoute = defineRoute({
  operationId: 'createLabel',
  method: 'POST',
  path: '/labels/create',
  tag: 'chats',
  summary: 'Create a label',
  description:
    'Creates a label of the organization (type defaults to chat, color to #9e9e9e). Names are case-insensitive and ' +
    'kept lower case; creating a name that exists for that type answers the existing label unchanged (a retried ' +
    'create makes no second label).',
  body: CreateLabelBody,
  phone: 'none',
  rpc: CreateLabelRpc,
  successStatus: 200,
  response: LabelSchema,
});
