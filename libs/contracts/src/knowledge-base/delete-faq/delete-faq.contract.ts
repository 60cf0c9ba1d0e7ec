import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ContextIdParams } from '../entry/kb-entry.schema';

export const DeleteFaqResponse = z.object({ context_id: z.uuid() });
export type DeleteFaqResponse = z.infer<typeof DeleteFaqResponse>;

export const DeleteFaqRpc = defineRpc({
  subject: 'knowledge-base.v1.faq.delete',
  service: 'knowledge-base',
  request: z.object({ ctx: RequestContextSchema, params: ContextIdParams }),
  response: DeleteFaqResponse,
});
export type DeleteFaqRequest = z.infer<typeof DeleteFaqRpc.request>;

export const DeleteFaqRoute = defineRoute({
  operationId: 'deleteFaq',
  method: 'DELETE',
  path: '/knowledge-base/faq/{context_id}',
  tag: 'knowledge-base',
  summary: 'Delete an FAQ permanently',
  description:
    "Only entries of type faq: a document chunk or a self-learned entry is refused with 422; an unknown id (or another organization's) is a 404.",
  params: ContextIdParams,
  phone: 'none',
  rpc: DeleteFaqRpc,
  successStatus: 200,
  response: DeleteFaqResponse,
});
