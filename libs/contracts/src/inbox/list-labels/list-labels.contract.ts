import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { MAX_PAGE_LIMIT, pageFields } from '../../chats/paging/paging';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { LabelSchema, LabelTypeSchema } from '../label/label.schema';

export const ListLabelsQuery = z.object({ ...pageFields, type: LabelTypeSchema.optional() });

export const ListLabelsResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  count: z.number().int(),
  labels: z.array(LabelSchema),
});
export type ListLabelsResponse = z.infer<typeof ListLabelsResponse>;

export const ListLabelsRpc = defineRpc({
  subject: 'inbox.v1.labels.list',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, query: ListLabelsQuery }),
  response: ListLabelsResponse,
});
export type ListLabelsRequest = z.infer<typeof ListLabelsRpc.request>;

export const ListLabelsRoute = defineRoute({
  operationId: 'getLabels',
  method: 'GET',
  path: '/labels',
  tag: 'chats',
  summary: "List the organization's labels",
  description:
    "The organization's labels (`tbl_org_labels` rows) by name, of one type when `type` is given. " +
    `offset defaults to 0, limit to ${MAX_PAGE_LIMIT}, its maximum (inclusive).`,
  query: ListLabelsQuery,
  phone: 'none',
  rpc: ListLabelsRpc,
  successStatus: 200,
  response: ListLabelsResponse,
});
