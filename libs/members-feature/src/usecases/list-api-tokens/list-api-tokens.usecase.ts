import type { ApiToken, ListApiTokensRequest } from '@mapi/contracts';
import { requireTokenManager } from '../../access';
import { toApiToken } from '../../map-api-token';
import type { TokenRepository } from '../../repositories/token-repository';

/** GET /api-tokens: the organization's tokens, revoked ones included, newest first. */
export class ListApiTokens {
  constructor(private readonly tokens: TokenRepository) {}

  async execute({ ctx }: ListApiTokensRequest): Promise<{ tokens: ApiToken[] }> {
    requireTokenManager(ctx);
    return { tokens: (await this.tokens.list(ctx.org_id)).map(toApiToken) };
  }
}
