import { storageConfigSchema, type StorageConfig } from '@mapi/storage';
import { z } from 'zod';

const optional = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

/** Settings of the Baileys connector (phones with connector `baileys`). */
export const BaileysConfigSchema = z.object({
  /** 32 bytes, base64: encrypts the sessions' auth state at rest. Unset: Baileys phones do not start. */
  BAILEYS_AUTH_KEY: optional.refine((v) => v === undefined || Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded'),
  /** Largest media file sent (downloaded from a URL or base64) or received and stored. */
  BAILEYS_MEDIA_MAX_BYTES: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number()
      .int()
      .min(1)
      .default(16 * 1024 * 1024),
  ),
  /** Received media downloaded at once per library event (live or history sync). */
  BAILEYS_MEDIA_CONCURRENCY: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(32).default(4)),
  /** Whether media of history-synced messages is downloaded and stored too (`false`: metadata only). */
  BAILEYS_HISTORY_MEDIA: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['true', 'false']).default('true')),
  /** Public origin of media links (`<this>/app/media/<bucket>/<org_id>/...`), as in the media service. */
  MEDIA_BASE_URL: z.string().url().default('http://localhost:8090'),
});

/** Received media is written where the media service reads it: the same MEDIA_STORAGE_* settings. */
const BaileysStorageSchema = storageConfigSchema('MEDIA_');

export interface BaileysConfig {
  authKey: Buffer | null;
  mediaMaxBytes: number;
  mediaConcurrency: number;
  historyMedia: boolean;
  mediaBaseUrl: string;
  storage: StorageConfig;
}

/** Parses the settings; the issues name the variables (the caller turns them into a ConfigError). */
export function parseBaileysConfig(env: NodeJS.ProcessEnv): { ok: true; config: BaileysConfig } | { ok: false; issues: string[] } {
  const own = BaileysConfigSchema.safeParse(env);
  const storage = BaileysStorageSchema.safeParse(env);
  if (!own.success || !storage.success) {
    const issues = [...(own.error?.issues ?? []), ...(storage.error?.issues ?? [])];
    return { ok: false, issues: issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
  }
  return {
    ok: true,
    config: {
      authKey: own.data.BAILEYS_AUTH_KEY ? Buffer.from(own.data.BAILEYS_AUTH_KEY, 'base64') : null,
      mediaMaxBytes: own.data.BAILEYS_MEDIA_MAX_BYTES,
      mediaConcurrency: own.data.BAILEYS_MEDIA_CONCURRENCY,
      historyMedia: own.data.BAILEYS_HISTORY_MEDIA === 'true',
      mediaBaseUrl: own.data.MEDIA_BASE_URL.replace(/\/+$/, ''),
      storage: storage.data,
    },
  };
}
