import { DEV_SIGNING_KEYS, loadMediaConfig } from './config';

const KEYS = JSON.stringify([{ kid: 'a', secret: 'x'.repeat(32) }]);

describe('loadMediaConfig', () => {
  it('has working defaults outside production, including a documented dev key', () => {
    const config = loadMediaConfig({});
    expect(config).toMatchObject({
      MEDIA_HTTP_PORT: 8090,
      MEDIA_BASE_URL: 'http://localhost:8090',
      MEDIA_BUCKETS: ['message-media', 'kb-attachments'],
      signingKeys: DEV_SIGNING_KEYS,
      storage: { backend: 'local' },
    });
  });

  it('reads lists and trims trailing slashes of URLs', () => {
    const config = loadMediaConfig({ MEDIA_BUCKETS: ' a-1, b_2 ,', MEDIA_BASE_URL: 'https://cdn.example.com/m/', MEDIA_JWT_KEYS: KEYS });
    expect(config.MEDIA_BUCKETS).toEqual(['a-1', 'b_2']);
    expect(config.MEDIA_BASE_URL).toBe('https://cdn.example.com/m');
    expect(config.signingKeys).toEqual([{ kid: 'a', secret: 'x'.repeat(32) }]);
  });

  it('refuses to start in production without keys, and anywhere with a short secret', () => {
    expect(() => loadMediaConfig({ NODE_ENV: 'production' })).toThrow(/MEDIA_JWT_KEYS: required in production/);
    expect(() => loadMediaConfig({ MEDIA_JWT_KEYS: JSON.stringify([{ kid: 'a', secret: 'short' }]) })).toThrow(
      /MEDIA_JWT_KEYS.*at least 32 bytes/,
    );
    expect(loadMediaConfig({ NODE_ENV: 'production', MEDIA_JWT_KEYS: KEYS }).signingKeys[0].kid).toBe('a');
  });

  it('names every bad variable at once', () => {
    expect(() => loadMediaConfig({ MEDIA_HTTP_PORT: '70000', MEDIA_BASE_URL: 'nope', MEDIA_STORAGE_BACKEND: 's3' })).toThrow(
      /MEDIA_HTTP_PORT[\s\S]*MEDIA_BASE_URL[\s\S]*MEDIA_S3_BUCKET/,
    );
  });
});
