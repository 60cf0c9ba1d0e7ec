import { z } from 'zod';
import { configError } from '@mapi/platform';
import { storageConfigSchema, type StorageConfig } from '@mapi/storage';

/** The importer's own variables (IMPORT_*, and the media storage it copies files into); see docs/services/imports.md. */
export const ImporterConfigSchema = z.object({
  /** Address ranges a source may be at despite the SSRF block, e.g. 127.0.0.1/32 for a stack on this host. */
  IMPORT_SOURCE_ALLOW_CIDRS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  /** Largest media file copied from the source; a larger one fails (reported) and keeps the source's link. */
  IMPORT_MEDIA_MAX_BYTES: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number()
      .int()
      .min(1)
      .default(100 * 1024 * 1024),
  ),
  /** Whether message media is copied into our storage (`false`: messages keep the source's links). */
  IMPORT_MEDIA: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['true', 'false']).default('true')).transform((v) => v === 'true'),
  /** Public origin of media links (`<this>/app/media/<bucket>/<org_id>/...`), as in the media service. */
  MEDIA_BASE_URL: z
    .preprocess((v) => (v === '' ? undefined : v), z.url().default('http://localhost:8090'))
    .transform((u) => u.replace(/\/+$/, '')),
});
export type ImporterConfig = z.infer<typeof ImporterConfigSchema> & { storage: StorageConfig };

/** Copied files go where the media service reads them: the same MEDIA_STORAGE_* settings. */
const ImporterStorageSchema = storageConfigSchema('MEDIA_');

export function loadImporterConfig(env: NodeJS.ProcessEnv = process.env): ImporterConfig {
  const own = ImporterConfigSchema.safeParse(env);
  const storage = ImporterStorageSchema.safeParse(env);
  if (!own.success || !storage.success) throw configError([...(own.error?.issues ?? []), ...(storage.error?.issues ?? [])]);
  return { ...own.data, storage: storage.data };
}
