import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc, type RpcRequest } from '../../rpc/define-rpc';

/** One template of the phone's WhatsApp Business Account, as the Graph API describes it. */
export const CloudApiTemplateSchema = z.object({
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string().nullable(),
  /** Meta's components (header, body with its {{n}} placeholders, footer, buttons), as Meta gives them. */
  components: z.array(z.unknown()),
});
export const CloudApiTemplatesResponse = z.object({ templates: z.array(CloudApiTemplateSchema) });
export type CloudApiTemplatesResponse = z.infer<typeof CloudApiTemplatesResponse>;

export const ListCloudApiTemplatesRpc = defineRpc({
  subject: 'phones.v1.cloud-api.templates',
  service: 'phones',
  request: z.object({ ctx: RequestContextSchema }).loose(),
  response: CloudApiTemplatesResponse,
});
export type ListCloudApiTemplatesRequest = RpcRequest<typeof ListCloudApiTemplatesRpc>;

export const ListCloudApiTemplatesRoute = defineRoute({
  operationId: 'listCloudApiTemplates',
  method: 'GET',
  path: '/cloud-api/templates',
  tag: 'phones',
  summary: "The approved message templates of a Cloud API phone's business account",
  description:
    'Send one with POST /message/send `{chat_id, template: {name, language, parameters}}`. 422 on `x-phone` for a phone that is ' +
    'not a Cloud API phone; 400 ERROR when the Graph API cannot be reached or refuses the token.',
  phone: 'required',
  rpc: ListCloudApiTemplatesRpc,
  successStatus: 200,
  response: CloudApiTemplatesResponse,
});
