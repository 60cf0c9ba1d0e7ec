import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { LocalFsStorage, S3Storage, type ObjectStorage } from '@mapi/storage';
import { AppProcess, freePort, randomSuffix, startS3Server, testEnv, type S3TestServer } from '@mapi/testing';

export const LEGACY_STORAGE_URL = 'https://legacy.example.supabase.co/storage/v1/object/public';
export const LEGACY_PATH = '/storage/v1/object/public';
export const MEDIA_BUCKETS = ['message-media', 'kb-attachments'];
/** The current key first; an older one still accepted. Tests forge tokens with these secrets. */
export const SIGNING_KEYS = [
  { kid: 'k2', secret: 'e2e-current-media-secret-0123456789abcdef' },
  { kid: 'k1', secret: 'e2e-previous-media-secret-0123456789abcdef' },
];

/**
 * The gateway and the media service as processes; files in a temporary storage root, or with
 * `backend: 's3'` in an S3-compatible server process (libs/testing s3-server.ts) that the media app reaches over HTTP.
 */
export interface MediaStack {
  apiUrl: string;
  mediaUrl: string;
  /** The same storage the media app uses (same folder, or same S3 bucket), for the test to put files in. */
  storage: ObjectStorage;
  prisma: PrismaClient;
  media: AppProcess;
  /** Set with `backend: 's3'`. */
  s3?: S3TestServer;
  stop(): Promise<void>;
}

export async function startMediaStack(options: { backend?: 'local' | 's3' } = {}): Promise<MediaStack> {
  const [port, mediaPort] = [await freePort(), await freePort()];
  const root = await mkdtemp(join(tmpdir(), 'mapi-media-e2e-'));
  const s3 = options.backend === 's3' ? await startS3Server() : undefined;
  const storageEnv: Record<string, string> = s3
    ? {
        MEDIA_STORAGE_BACKEND: 's3',
        MEDIA_S3_ENDPOINT: s3.endpoint,
        MEDIA_S3_REGION: s3.region,
        MEDIA_S3_BUCKET: s3.bucket,
        MEDIA_S3_ACCESS_KEY_ID: s3.accessKeyId,
        MEDIA_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        MEDIA_S3_FORCE_PATH_STYLE: 'true',
      }
    : { MEDIA_STORAGE_BACKEND: 'local', MEDIA_STORAGE_ROOT: root };
  const mediaUrl = `http://127.0.0.1:${mediaPort}`;
  const env = {
    DATABASE_URL: testEnv.databaseUrl(),
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: `${testEnv.namespace()}-media-${randomSuffix(3)}`,
    NODE_ENV: 'test',
    AUTH_CACHE_TTL_MS: '0',
    RATE_LIMIT_PER_SECOND: '10000',
  };
  const media = AppProcess.start('media', {
    ...env,
    MEDIA_HTTP_PORT: String(mediaPort),
    MEDIA_HTTP_HOST: '127.0.0.1',
    MEDIA_BASE_URL: mediaUrl,
    ...storageEnv,
    MEDIA_BUCKETS: MEDIA_BUCKETS.join(','),
    MEDIA_LEGACY_STORAGE_URL: LEGACY_STORAGE_URL,
    MEDIA_JWT_KEYS: JSON.stringify(SIGNING_KEYS),
  });
  const gateway = AppProcess.start('api-gateway', { ...env, PORT: String(port), HOST: '127.0.0.1' });
  const apiUrl = `http://127.0.0.1:${port}`;
  try {
    await Promise.all([media.waitReady(`${mediaUrl}/health/ready`), gateway.waitReady(`${apiUrl}/health/ready`)]);
  } catch (error) {
    await Promise.all([gateway.kill(), media.kill()]);
    await s3?.stop();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const prisma = createPrismaClient({ url: testEnv.databaseUrl(), poolSize: 2 });
  return {
    apiUrl,
    mediaUrl,
    storage: s3
      ? new S3Storage({
          endpoint: s3.endpoint,
          region: s3.region,
          bucket: s3.bucket,
          accessKeyId: s3.accessKeyId,
          secretAccessKey: s3.secretAccessKey,
          forcePathStyle: true,
        })
      : new LocalFsStorage(root),
    prisma,
    media,
    s3,
    stop: async () => {
      await Promise.all([gateway.stop(), media.stop()]);
      await prisma.$disconnect();
      await s3?.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** POST JSON through the gateway with a bearer token; the body parsed when it is JSON. */
export async function postJson(url: string, token: string | undefined, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

/** GET a file with optional headers; the bytes and the response. */
export async function download(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(url, { headers, method });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(bytes.toString('utf8')) };
}

/** Deterministic content: byte i is i mod 251, so any slice can be checked. */
export const pattern = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => i % 251));
