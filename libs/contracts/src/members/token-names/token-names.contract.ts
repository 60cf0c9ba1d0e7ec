import { z } from 'zod';
import type { RequestContext } from '../../common/request-context';
import { RequestContextSchema } from '../../common/request-context';
import { defineRpc } from '../../rpc/define-rpc';
import type { RpcCaller } from '../../rpc/rpc-caller';

/**
 * Internal (no public route): the names of the organization's API tokens among the given ids (revoked
 * ones included; ids of no token of ctx.org_id are left out). Asked by the analytics service, whose team
 * rows name a token by its id (a message's performed_by), so that a member who may not list the tokens
 * (GET /api-tokens is for admins) still reads a name. Nothing else of a token is answered.
 */
export const TokenNamesRpc = defineRpc({
  subject: 'members.v1.tokens.names',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ ids: z.array(z.uuid()).min(1).max(1000) }) }),
  response: z.object({ tokens: z.array(z.object({ id: z.string(), name: z.string() })) }),
});
export type TokenNamesRequest = z.infer<typeof TokenNamesRpc.request>;

const IDS_PER_CALL = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The one client of members.v1.tokens.names: id → name of the tokens among `keys` (keys that are not
 * UUIDs, such as emails, are not asked), in calls of up to 1,000 ids. No id, no call.
 */
export async function tokenNames(rpc: RpcCaller, ctx: RequestContext, keys: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(keys.filter((k) => UUID.test(k)))];
  const names = new Map<string, string>();
  for (let i = 0; i < ids.length; i += IDS_PER_CALL) {
    const answer = await rpc.call(TokenNamesRpc, { ctx, body: { ids: ids.slice(i, i + IDS_PER_CALL) } });
    for (const t of answer.tokens) names.set(t.id, t.name);
  }
  return names;
}
