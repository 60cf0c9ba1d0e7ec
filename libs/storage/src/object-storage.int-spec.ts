import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';
import { startS3Server, type S3TestServer } from '@mapi/testing';
import { LocalFsStorage } from './local-fs-storage';
import { InvalidObjectKeyError, type ObjectKey } from './object-key';
import type { ObjectStorage } from './object-storage';
import { S3Storage } from './s3-storage';
import { createStorage, storageConfigSchema } from './storage-config';

const bytes = async (stream: Readable | null) => {
  const chunks: Buffer[] = [];
  for await (const c of stream!) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};
const names = (page: { objects: { key: ObjectKey }[] }) => page.objects.map((o) => o.key.name);

interface Backend {
  storage: ObjectStorage;
  stop(): Promise<void>;
}

/**
 * One behaviour, every backend: the local filesystem, and the S3 backend against a real S3-compatible
 * server running as its own process (s3rver, over HTTP with Signature V4), configured the way the
 * media app configures it (storageConfigSchema → createStorage).
 */
const backends: [string, () => Promise<Backend>][] = [
  [
    'local filesystem',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'mapi-storage-int-'));
      return { storage: new LocalFsStorage(root), stop: () => rm(root, { recursive: true, force: true }) };
    },
  ],
  [
    'S3 against an s3rver process',
    async () => {
      const server = await startS3Server();
      const storage = createStorage(
        storageConfigSchema('MEDIA_').parse({
          MEDIA_STORAGE_BACKEND: 's3',
          MEDIA_S3_ENDPOINT: server.endpoint,
          MEDIA_S3_BUCKET: server.bucket,
          MEDIA_S3_ACCESS_KEY_ID: server.accessKeyId,
          MEDIA_S3_SECRET_ACCESS_KEY: server.secretAccessKey,
        }),
      );
      return { storage, stop: async () => ((storage as S3Storage).client.destroy(), server.stop()) };
    },
  ],
];

describe.each(backends)('ObjectStorage: %s', (_name, start) => {
  let backend: Backend;
  let storage: ObjectStorage;
  const orgA = randomUUID();
  const orgB = randomUUID();
  const key = (name: string, org = orgA, bucket = 'message-media'): ObjectKey => ({ bucket, name: `${org}/${name}` });

  beforeAll(async () => {
    backend = await start();
    storage = backend.storage;
  }, 30_000);
  afterAll(() => backend?.stop());

  it('is ready', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
  });

  it('puts, heads and gets an object with a unicode, space and %-containing name', async () => {
    const k = key('chat/1@c.us/naïve café 100%2F ü.jpg');
    const info = await storage.write(k, 'hello world', { contentType: 'image/jpeg' });
    expect(info.size).toBe(11);
    expect(info.etag).toMatch(/^".+"$/);
    const head = await storage.stat(k);
    expect(head).toMatchObject({ size: 11, etag: info.etag });
    expect(head!.lastModified.getTime()).toBeGreaterThan(Date.now() - 60_000);
    if (storage.kind === 's3') expect(head!.contentType).toBe('image/jpeg');
    expect((await bytes(await storage.read(k))).toString()).toBe('hello world');
  });

  it('reads byte ranges: middle, last byte, a range past the end cut to the size', async () => {
    const data = randomBytes(4096);
    const k = key('ranges.bin');
    await storage.write(k, data);
    expect((await bytes(await storage.read(k, { start: 100, end: 199 }))).equals(data.subarray(100, 200))).toBe(true);
    expect((await bytes(await storage.read(k, { start: 4095, end: 4095 }))).equals(data.subarray(4095))).toBe(true);
    expect((await bytes(await storage.read(k, { start: 4000, end: 9999 }))).equals(data.subarray(4000))).toBe(true);
  });

  it('overwrites in place (new size and validator)', async () => {
    const k = key('overwrite.txt');
    const first = await storage.write(k, 'one');
    await new Promise((r) => setTimeout(r, 20));
    const second = await storage.write(k, 'second');
    expect(second.size).toBe(6);
    expect(second.etag).not.toBe(first.etag);
    expect((await bytes(await storage.read(k))).toString()).toBe('second');
  });

  it('answers null for a missing object (stat and read), and delete of a missing object is no error', async () => {
    const missing = key('missing/nothing.jpg');
    expect(await storage.stat(missing)).toBeNull();
    expect(await storage.read(missing)).toBeNull();
    expect(await storage.read(missing, { start: 0, end: 10 })).toBeNull();
    await expect(storage.delete(missing)).resolves.toBeUndefined();
  });

  it('deletes', async () => {
    const k = key('to-delete.txt');
    await storage.write(k, 'x');
    await storage.delete(k);
    expect(await storage.stat(k)).toBeNull();
    expect(await storage.read(k)).toBeNull();
  });

  it('stores a large object (12 MiB) intact and serves a range from its end', async () => {
    const data = randomBytes(12 * 1024 * 1024);
    const k = key('video/large.mp4');
    const info = await storage.write(k, data, { contentType: 'video/mp4' });
    expect(info.size).toBe(data.length);
    expect((await storage.stat(k))!.size).toBe(data.length);
    const back = await bytes(await storage.read(k));
    expect(createHash('sha256').update(back).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    const tail = await bytes(await storage.read(k, { start: data.length - 1000, end: data.length - 1 }));
    expect(tail.equals(data.subarray(data.length - 1000))).toBe(true);
  }, 60_000);

  describe('list', () => {
    beforeAll(async () => {
      for (const name of ['b/2.txt', 'b/1.txt', 'a.txt', 'b/sub/3.txt', 'é.txt', 'c d.txt'])
        await storage.write(key(name, orgA, 'kb-attachments'), name);
      await storage.write(key('b/other-org.txt', orgB, 'kb-attachments'), 'x');
      await storage.write(key('b/other-bucket.txt', orgA, 'message-media'), 'x');
    });

    it("lists one organization's objects of one bucket, in S3 (UTF-8 byte) order, with sizes", async () => {
      const page = await storage.list('kb-attachments', orgA);
      expect(names(page)).toEqual(['a.txt', 'b/1.txt', 'b/2.txt', 'b/sub/3.txt', 'c d.txt', 'é.txt'].map((n) => `${orgA}/${n}`));
      expect(page.objects[0]).toMatchObject({ key: { bucket: 'kb-attachments', name: `${orgA}/a.txt` }, size: 5 });
      expect(page.objects[0].lastModified.getTime()).toBeGreaterThan(Date.now() - 60_000);
      expect(page.next).toBeUndefined();
      expect(names(await storage.list('kb-attachments', orgB))).toEqual([`${orgB}/b/other-org.txt`]);
    });

    it('filters by a name prefix (string prefix, folders included)', async () => {
      expect(names(await storage.list('kb-attachments', orgA, { prefix: 'b/' }))).toEqual(
        ['b/1.txt', 'b/2.txt', 'b/sub/3.txt'].map((n) => `${orgA}/${n}`),
      );
      expect(names(await storage.list('kb-attachments', orgA, { prefix: 'b/s' }))).toEqual([`${orgA}/b/sub/3.txt`]);
      expect(names(await storage.list('kb-attachments', orgA, { prefix: 'c ' }))).toEqual([`${orgA}/c d.txt`]);
      expect(names(await storage.list('kb-attachments', orgA, { prefix: 'zzz' }))).toEqual([]);
      expect(names(await storage.list('kb-attachments', randomUUID()))).toEqual([]);
    });

    it('pages with limit and next', async () => {
      const seen: string[] = [];
      let after: string | undefined;
      let pages = 0;
      do {
        const page = await storage.list('kb-attachments', orgA, { limit: 4, after });
        expect(page.objects.length).toBeLessThanOrEqual(4);
        seen.push(...names(page));
        after = page.next;
        pages++;
      } while (after && pages < 10);
      expect(pages).toBe(2);
      expect(seen).toEqual(names(await storage.list('kb-attachments', orgA)));
    });

    it('refuses an organization id that is not one segment, before any request', async () => {
      await expect(storage.list('kb-attachments', `${orgA}/..`)).rejects.toThrow(InvalidObjectKeyError);
      await expect(storage.list('kb-attachments', '..')).rejects.toThrow(InvalidObjectKeyError);
      await expect(storage.list('../etc', orgA)).rejects.toThrow(InvalidObjectKeyError);
    });
  });

  it('refuses invalid keys before touching the backend', async () => {
    await expect(storage.write(key('../escape.txt'), 'x')).rejects.toThrow(InvalidObjectKeyError);
    await expect(storage.stat({ bucket: 'message-media', name: 'no-file-segment' })).rejects.toThrow(InvalidObjectKeyError);
  });
});

describe('S3 backend failures against an s3rver process', () => {
  let server: S3TestServer;
  const make = (over: Partial<ConstructorParameters<typeof S3Storage>[0]> = {}) =>
    new S3Storage({
      endpoint: server.endpoint,
      region: 'us-east-1',
      bucket: server.bucket,
      accessKeyId: server.accessKeyId,
      secretAccessKey: server.secretAccessKey,
      forcePathStyle: true,
      ...over,
    });
  const key = { bucket: 'message-media', name: `${randomUUID()}/a.txt` };

  beforeAll(async () => {
    server = await startS3Server('failures-bucket');
  }, 30_000);
  afterAll(() => server?.stop());

  it('is not ready, and throws (not null), when the bucket does not exist', async () => {
    const storage = make({ bucket: 'no-such-bucket' });
    await expect(storage.check()).rejects.toThrow();
    await expect(storage.write(key, 'x')).rejects.toThrow(/bucket/i);
    storage.client.destroy();
  });

  it('is refused with unknown credentials, and the error is thrown (not taken for a missing object)', async () => {
    const storage = make({ accessKeyId: 'NOT-AN-ACCOUNT' });
    await expect(storage.write(key, 'x')).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
    await expect(storage.read(key)).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
    await expect(storage.check()).rejects.toThrow();
    storage.client.destroy();
  });

  it('is not ready when the server is unreachable', async () => {
    const storage = make({ endpoint: 'http://127.0.0.1:9' });
    await expect(storage.check()).rejects.toThrow();
    storage.client.destroy();
  });

  it("records the extension's type when a write names none, and reports a generic recorded type as unknown", async () => {
    const org = randomUUID();
    const storage = make();
    const written = await storage.write({ bucket: 'message-media', name: `${org}/doc.pdf` }, 'x');
    expect(written.contentType).toBe('application/pdf');
    expect((await storage.stat({ bucket: 'message-media', name: `${org}/doc.pdf` }))!.contentType).toBe('application/pdf');
    const client = new S3Client({
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
    await client.send(new PutObjectCommand({ Bucket: server.bucket, Key: `message-media/${org}/other-tool.png`, Body: 'x' }));
    client.destroy();
    expect((await storage.stat({ bucket: 'message-media', name: `${org}/other-tool.png` }))!.contentType).toBeUndefined();
    storage.client.destroy();
  });

  it('leaves folder markers (`name/`, as S3 consoles create them) out of a listing', async () => {
    const org = randomUUID();
    const client = new S3Client({
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
    await client.send(new PutObjectCommand({ Bucket: server.bucket, Key: `message-media/${org}/folder/`, Body: '' }));
    client.destroy();
    const storage = make();
    await storage.write({ bucket: 'message-media', name: `${org}/fine.txt` }, 'ok');
    expect(names(await storage.list('message-media', org))).toEqual([`${org}/fine.txt`]);
    storage.client.destroy();
  });
});
