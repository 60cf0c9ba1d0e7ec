import type { TouchApiTokenRequest } from '@mapi/contracts';
import type { TokenRepository } from '../../repositories/token-repository';

/** members.v1.tokens.touch (internal): the gateway authenticated this token; last_used_at follows. */
export class TouchApiToken {
  constructor(private readonly tokens: TokenRepository) {}

  async execute({ body }: TouchApiTokenRequest): Promise<null> {
    await this.tokens.touch(body.token_id, new Date(body.used_at));
    return null;
  }
}
