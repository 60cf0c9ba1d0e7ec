import { z } from 'zod';
import { LocalFsStorage } from './local-fs-storage';
import type { ObjectStorage } from './object-storage';
import { S3Storage } from './s3-storage';

const bool = z
  .preprocess((v) => (v === '' || v === undefined ? undefined : v), z.enum(['true', 'false']).default('true'))
  .transform((v) => v === 'true');
const optional = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

/**
 * Storage settings under a prefix, so each service names its own variables (the media service reads
 * MEDIA_STORAGE_BACKEND, MEDIA_STORAGE_ROOT, MEDIA_S3_...). Services that share files point theirs at
 * the same place.
 */
export function storageConfigSchema(prefix: string) {
  return z
    .object({
      [`${prefix}STORAGE_BACKEND`]: z.enum(['local', 's3']).default('local'),
      [`${prefix}STORAGE_ROOT`]: z.string().min(1).default('./.data/storage'),
      [`${prefix}S3_ENDPOINT`]: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
      [`${prefix}S3_REGION`]: z.string().min(1).default('us-east-1'),
      [`${prefix}S3_BUCKET`]: optional,
      [`${prefix}S3_ACCESS_KEY_ID`]: optional,
      [`${prefix}S3_SECRET_ACCESS_KEY`]: optional,
      [`${prefix}S3_FORCE_PATH_STYLE`]: bool,
    })
    .transform((raw, ctx): StorageConfig => {
      const get = (name: string) => raw[`${prefix}${name}`] as never;
      if (get('STORAGE_BACKEND') === 'local') return { backend: 'local', root: get('STORAGE_ROOT') };
      if (!get('S3_BUCKET')) {
        ctx.addIssue({ code: 'custom', path: [`${prefix}S3_BUCKET`], message: `required when ${prefix}STORAGE_BACKEND=s3` });
        return z.NEVER;
      }
      return {
        backend: 's3',
        s3: {
          endpoint: get('S3_ENDPOINT'),
          region: get('S3_REGION'),
          bucket: get('S3_BUCKET'),
          accessKeyId: get('S3_ACCESS_KEY_ID'),
          secretAccessKey: get('S3_SECRET_ACCESS_KEY'),
          forcePathStyle: get('S3_FORCE_PATH_STYLE'),
        },
      };
    });
}

export type StorageConfig = { backend: 'local'; root: string } | { backend: 's3'; s3: ConstructorParameters<typeof S3Storage>[0] };

export function createStorage(config: StorageConfig): ObjectStorage {
  return config.backend === 'local' ? new LocalFsStorage(config.root) : new S3Storage(config.s3);
}
