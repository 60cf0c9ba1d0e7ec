import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ApiTokenIdParams } from '../api-token/api-token.schema';

export const RevokeApiTokenRpc = defineRpc({
  subject: 'members.v1.tokens.revoke',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema, params: ApiTokenIdParams }),
  response: z.null(),
});
export type RevokeApiTokenRequest = z.infer<typeof RevokeApiTokenRpc.request>;

export const RevokeApiTokenRoute = defineRoute({
  operationId: 'revokeApiToken',
  method: 'DELETE',
  path: '/api-tokens/{id}',
  tag: 'members',
  summary: 'Revoke an API token',
  description:
    'The token is refused (401) from its next request on: at once on the gateway that served this call, within AUTH_CACHE_TTL_MS ' +
    '(5 s by default) on the others. The row stays (listed with revoked_at); revoking it again changes nothing (204). An unknown ' +
    "id, or another organization's, is 404. Recorded in the audit trail (token.revoked). Owners and admins, and tokens that reach " +
    'every phone (403 for a member or a phone-scoped token).',
  params: ApiTokenIdParams,
  phone: 'none',
  role: 'admin',
  rpc: RevokeApiTokenRpc,
  successStatus: 204,
  forgetToken: 'id',
});
