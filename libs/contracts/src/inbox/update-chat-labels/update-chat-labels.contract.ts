import { z } from 'zod';
import { ChatIdListSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { LabelsSchema } from '../../chats/contacts/contact.schema';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';

export const UpdateChatLabelsBody = z.object({
  labels: LabelsSchema,
  chat_ids: ChatIdListSchema,
});

export const UpdateChatLabelsRpc = defineRpc({
  subject: 'inbox.v1.chats.labels',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, body: UpdateChatLabelsBody }),
  response: z.null(),
});
export type UpdateChatLabelsRequest = z.infer<typeof UpdateChatLabelsRpc.request>;

export const UpdateChatLabelsRoute = defineRoute({
  operationId: 'updateChatLabels',
  method: 'PATCH',
  path: '/chats/labels',
  tag: 'chats',
  summary: 'Replace the labels of several chats',
  description:
    "labels (comma-separated, case-insensitive; '' clears them) replaces the labels of every chat of chat_ids; a name " +
    'the organization has no chat label of is created. All or nothing: when any id is not a chat a phone in reach has ' +
    "(missing, or another organization's), 404 NOT_FOUND_ERROR and nothing changes (no label created either). " +
    'Emits chat.label.updated for each chat whose labels changed. Answers 204.',
  body: UpdateChatLabelsBody,
  phone: 'optional',
  rpc: UpdateChatLabelsRpc,
  successStatus: 204,
});
