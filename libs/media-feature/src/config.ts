import { z } from 'zod';
import { configError } from '@mapi/platform';
import { storageConfigSchema, type StorageConfig } from '@mapi/storage';
import { parseSigningKeys, type SigningKey } from './tokens/signing-keys';

/**
 * Development-only signing key: used when MEDIA_JWT_KEYS is unset and NODE_ENV is not production,
 * so `npm run up` works out of the box. Links signed with it are forgeable by anyone who reads
 * this file; production refuses to start without MEDIA_JWT_KEYS.
 */
export const DEV_SIGNING_KEYS: readonly SigningKey[] = [{ kid: 'dev-1', secret: 'dev-only-media-link-secret-do-not-use-in-production' }];

const int = (def: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().nonnegative().max(max).default(def));

const baseUrl = (def: string) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.url().default(def)).transform((u) => u.replace(/\/+$/, ''));

export const MediaConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    MEDIA_HTTP_HOST: z.string().default('0.0.0.0'),
    MEDIA_HTTP_PORT: int(8090, 65535),
    /** Where the media app's file route is reached from outside: links are `<this>/app/media/...`. */
    MEDIA_BASE_URL: baseUrl('http://localhost:8090'),
    /** The legacy store's public-object prefix; both legacy forms are recognised under it. */
    MEDIA_LEGACY_STORAGE_URL: baseUrl('https://legacy.example.supabase.co/storage/v1/object/public'),
    /** Buckets this service owns (comma-separated); links to any other bucket are refused. */
    MEDIA_BUCKETS: z
      .string()
      .default('message-media,kb-attachments')
      .transform((s) =>
        s
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'bucket names: letters, digits, _ . -')).min(1)),
    /** JSON list of {kid, secret[, retired_at]}; the first is the current signing key. */
    MEDIA_JWT_KEYS: z.string().optional(),
    /** Cache-Control max-age of public files. */
    MEDIA_PUBLIC_MAX_AGE_SECONDS: int(86_400),
    /** Upper bound of a private file's Cache-Control max-age (never beyond its token's expiry). */
    MEDIA_PRIVATE_MAX_AGE_SECONDS: int(3_600),
  })
  .transform((raw, ctx) => {
    const { MEDIA_JWT_KEYS, ...rest } = raw;
    let keys: readonly SigningKey[];
    try {
      if (MEDIA_JWT_KEYS) keys = parseSigningKeys(MEDIA_JWT_KEYS);
      else if (raw.NODE_ENV === 'production') throw new Error('required in production (JSON list of {kid, secret})');
      else keys = DEV_SIGNING_KEYS;
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['MEDIA_JWT_KEYS'], message: (error as Error).message });
      return z.NEVER;
    }
    return { ...rest, signingKeys: keys };
  });
const MediaStorageSchema = storageConfigSchema('MEDIA_');

export type MediaConfig = z.infer<typeof MediaConfigSchema> & { storage: StorageConfig };

/** The media service's variables (MEDIA_*), validated; every bad variable is named in the error. */
export function loadMediaConfig(env: NodeJS.ProcessEnv = process.env): MediaConfig {
  const media = MediaConfigSchema.safeParse(env);
  const storage = MediaStorageSchema.safeParse(env);
  const issues = [...(media.error?.issues ?? []), ...(storage.error?.issues ?? [])];
  if (issues.length || !media.success || !storage.success) {
    throw configError(issues);
  }
  return { ...media.data, storage: storage.data };
}
