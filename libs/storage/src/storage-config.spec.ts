import { LocalFsStorage } from './local-fs-storage';
import { S3Storage } from './s3-storage';
import { createStorage, storageConfigSchema } from './storage-config';

const schema = storageConfigSchema('MEDIA_');

describe('storageConfigSchema', () => {
  it('defaults to the local filesystem', () => {
    expect(schema.parse({})).toEqual({ backend: 'local', root: './.data/storage' });
    expect(createStorage(schema.parse({ MEDIA_STORAGE_ROOT: '/tmp/x' }))).toBeInstanceOf(LocalFsStorage);
  });

  it('reads the S3 settings under the prefix', () => {
    const config = schema.parse({
      MEDIA_STORAGE_BACKEND: 's3',
      MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000',
      MEDIA_S3_BUCKET: 'media',
      MEDIA_S3_ACCESS_KEY_ID: 'minio',
      MEDIA_S3_SECRET_ACCESS_KEY: 'minio-secret',
      MEDIA_S3_FORCE_PATH_STYLE: 'false',
    });
    expect(config).toEqual({
      backend: 's3',
      s3: {
        endpoint: 'http://127.0.0.1:9000',
        region: 'us-east-1',
        bucket: 'media',
        accessKeyId: 'minio',
        secretAccessKey: 'minio-secret',
        forcePathStyle: false,
      },
    });
    const storage = createStorage(config);
    expect(storage).toBeInstanceOf(S3Storage);
    (storage as S3Storage).client.destroy();
  });

  it('names the missing bucket and bad values', () => {
    const missing = schema.safeParse({ MEDIA_STORAGE_BACKEND: 's3' });
    expect(missing.error?.issues.map((i) => i.path.join('.'))).toEqual(['MEDIA_S3_BUCKET']);
    expect(schema.safeParse({ MEDIA_STORAGE_BACKEND: 'ftp' }).success).toBe(false);
    expect(schema.safeParse({ MEDIA_STORAGE_BACKEND: 's3', MEDIA_S3_BUCKET: 'b', MEDIA_S3_ENDPOINT: 'nope' }).success).toBe(false);
  });
});
