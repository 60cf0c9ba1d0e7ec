import type { PrismaClient } from '@mapi/db';
import type { MediaAccess } from '@mapi/contracts';

/** An organization's media defaults (the media service's own media_settings table). */
export interface MediaSettings {
  accessDefault: MediaAccess;
  linkExpirySeconds: number;
}

/** The spec's defaults: private links that live 24 hours. Used for an unknown value in the column. */
export const DEFAULT_MEDIA_SETTINGS: MediaSettings = { accessDefault: 'private', linkExpirySeconds: 86_400 };

export class MediaSettingsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async get(orgId: string): Promise<MediaSettings> {
    const row = await this.prisma.mediaSettings.findUnique({ where: { org_id: orgId } });
    if (!row) return DEFAULT_MEDIA_SETTINGS;
    return {
      // Anything but an explicit 'public' is private: a typo must never publish files.
      accessDefault: row.access_default === 'public' ? 'public' : 'private',
      linkExpirySeconds: row.link_expiry_seconds,
    };
  }
}
