import type { HttpReply, MediaErrorBody, MigrateMediaUrlRequest, MigrateMediaUrlResponse } from '@mapi/contracts';
import { MediaLinkMigrator } from '../../links/media-link-migrator';
import { MediaLinkError } from '../../links/media-links';
import type { PublicObjectRepository } from '../../repositories/public-object-repository';
import type { MediaTokenService } from '../../tokens/media-token-service';

/**
 * POST /media/migrate-url (spec 4.8): a legacy URL, or a service link (expired or not), becomes a
 * current link to the same file: private with a fresh `jwt`, or public (bare, and the file is
 * recorded as public so the file route serves it without a token). Failures answer `{ error }`.
 */
export class MigrateMediaUrl {
  constructor(
    private readonly migrator: MediaLinkMigrator,
    private readonly tokens: MediaTokenService,
    private readonly publicObjects: PublicObjectRepository,
  ) {}

  async execute({ ctx, body }: MigrateMediaUrlRequest): Promise<MigrateMediaUrlResponse | HttpReply<MediaErrorBody>> {
    let key;
    try {
      key = this.migrator.ownedObject(ctx.org_id, body.url);
    } catch (error) {
      if (error instanceof MediaLinkError) return MediaLinkMigrator.toReply(error);
      throw error;
    }
    const policy = await this.migrator.policy(ctx.org_id, body);
    if (policy.access === 'public') {
      await this.publicObjects.publish(ctx.org_id, [key]);
      return { url: this.migrator.links.build(key), access: 'public' };
    }
    const { token } = await this.tokens.issue(ctx.org_id, policy.expiresInSeconds!);
    return { url: this.migrator.links.build(key, token), access: 'private', expires_in_seconds: policy.expiresInSeconds };
  }
}
