import type { PrismaClient } from '@mapi/db';
import type { MediaAccess } from '@mapi/contracts';

/** An organization's media defaults (organizations.media_access_default / media_link_expiry_seconds). */
export interface MediaSettings {
  accessDefault: MediaAccess;
  linkExpirySeconds: number;
}

/** The spec's defaults: private links that live 24 hours. Used for an unknown value in the column. */
export const DEFAULT_MEDIA_SETTINGS: MediaSettings = { accessDefault: 'private', linkExpirySeconds: 86_400 };

export class MediaSettingsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async get(orgId: string): Promise<MediaSettings> {
    const org = await this.prisma.organization.findUnique({
      where: { id: orgId },
      select: { media_access_default: true, media_link_expiry_seconds: true },
    });
    if (!org) return DEFAULT_MEDIA_SETTINGS;
    return {
      // Anything but an explicit 'public' is private: a typo must never publish files.
      accessDefault: org.media_access_default === 'public' ? 'public' : 'private',
      linkExpirySeconds: org.media_link_expiry_seconds,
    };
  }
}
