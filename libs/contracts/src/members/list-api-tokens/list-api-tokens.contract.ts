import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ApiTokenSchema } from '../api-token/api-token.schema';

export const ListApiTokensResponse = z.object({ tokens: z.array(ApiTokenSchema) });

export const ListApiTokensRpc = defineRpc({
  subject: 'members.v1.tokens.list',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema }),
  response: ListApiTokensResponse,
});
export type ListApiTokensRequest = z.infer<typeof ListApiTokensRpc.request>;

export const ListApiTokensRoute = defineRoute({
  operationId: 'listApiTokens',
  method: 'GET',
  path: '/api-tokens',
  tag: 'members',
  summary: "The organization's API tokens",
  description:
    'Every token of the organization, revoked ones included (with revoked_at), newest first: name, prefix, phone scope, last use. ' +
    'Never the token itself. Owners and admins, and tokens that reach every phone (403 for a member or a phone-scoped token).',
  phone: 'none',
  role: 'admin',
  rpc: ListApiTokensRpc,
  successStatus: 200,
  response: ListApiTokensResponse,
});
