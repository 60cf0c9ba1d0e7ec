import { z } from 'zod';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * Internal (no HTTP route): the gateway tells the owner of api_tokens that a token was used, when it
 * authenticates it without its cache (at most once per AUTH_CACHE_TTL_MS per token and replica).
 */
export const TouchApiTokenRpc = defineRpc({
  subject: 'members.v1.tokens.touch',
  service: 'members',
  request: z.object({ body: z.object({ token_id: z.uuid(), used_at: z.iso.datetime() }) }),
  response: z.null(),
});
export type TouchApiTokenRequest = z.infer<typeof TouchApiTokenRpc.request>;
