import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ContextIdParams, KbEntrySchema } from '../entry/kb-entry.schema';

export const GetFaqRpc = defineRpc({
  subject: 'knowledge-base.v1.faq.get',
  service: 'knowledge-base',
  request: z.object({ ctx: RequestContextSchema, params: ContextIdParams }),
  response: KbEntrySchema,
});
export type GetFaqRequest = z.infer<typeof GetFaqRpc.request>;

export const GetFaqRoute = defineRoute({
  operationId: 'getFaq',
  method: 'GET',
  path: '/knowledge-base/faq/{context_id}',
  tag: 'knowledge-base',
  summary: 'Get an FAQ (or self-learned) entry',
  params: ContextIdParams,
  phone: 'none',
  rpc: GetFaqRpc,
  successStatus: 200,
  response: KbEntrySchema,
});
