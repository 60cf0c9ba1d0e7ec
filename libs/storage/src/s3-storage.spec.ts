import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { S3Storage } from './s3-storage';

const ORG = '5b0c3f0e-4a47-4c5e-9a57-1f5f0d7a0c11';

/** The few S3 calls the backend makes, path-style, in memory: enough to check requests and answers. */
function fakeS3() {
  const objects = new Map<string, { body: Buffer; type?: string; etag: string }>();
  const requests: { method: string; path: string; auth: string; range?: string }[] = [];
  const body = (req: IncomingMessage) =>
    new Promise<Buffer>((r) => {
      const c: Buffer[] = [];
      req.on('data', (d) => c.push(d));
      req.on('end', () => r(Buffer.concat(c)));
    });
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    requests.push({ method: req.method!, path, auth: String(req.headers.authorization), range: req.headers.range });
    if ((path === '/media-bucket' || path === '/media-bucket/') && req.method === 'HEAD') return res.writeHead(200).end();
    const obj = objects.get(path);
    if (req.method === 'PUT') {
      const data = await body(req);
      const etag = `"${createHash('md5').update(data).digest('hex')}"`;
      objects.set(path, { body: data, type: req.headers['content-type'], etag });
      return res.writeHead(200, { ETag: etag }).end();
    }
    if (req.method === 'DELETE') return (objects.delete(path), res.writeHead(204).end());
    if (!obj) {
      if (req.method === 'HEAD') return res.writeHead(404).end();
      return res
        .writeHead(404, { 'content-type': 'application/xml' })
        .end('<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>none</Message></Error>');
    }
    const headers = {
      ETag: obj.etag,
      'Last-Modified': new Date('2026-01-01T00:00:00Z').toUTCString(),
      'Content-Type': obj.type ?? 'binary/octet-stream',
    };
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    const slice = m ? obj.body.subarray(Number(m[1]), Number(m[2]) + 1) : obj.body;
    res.writeHead(m ? 206 : 200, { ...headers, 'Content-Length': String(slice.length) });
    res.end(req.method === 'HEAD' ? undefined : slice);
  });
  return { server, objects, requests };
}

const text = async (s: Readable | null) => {
  const c: Buffer[] = [];
  for await (const x of s!) c.push(x as Buffer);
  return Buffer.concat(c).toString();
};

describe('S3Storage (against a local fake S3 endpoint)', () => {
  let fake: ReturnType<typeof fakeS3>;
  let server: Server;
  let storage: S3Storage;
  const key = { bucket: 'message-media', name: `${ORG}/chat/a b ü.jpg` };

  beforeAll(async () => {
    fake = fakeS3();
    server = fake.server;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    storage = new S3Storage({
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      region: 'us-east-1',
      bucket: 'media-bucket',
      accessKeyId: 'AKIDTEST',
      secretAccessKey: 'secret-test',
      forcePathStyle: true,
    });
  });
  afterAll(async () => {
    storage.client.destroy();
    await new Promise((r) => server.close(r));
  });

  it('puts the object under <bucket>/<org_id>/... in the configured S3 bucket, signed with the credentials', async () => {
    const info = await storage.write(key, 'hello world', { contentType: 'image/jpeg' });
    expect(info).toMatchObject({ size: 11, etag: `"${createHash('md5').update('hello world').digest('hex')}"` });
    expect([...fake.objects.keys()]).toEqual([`/media-bucket/message-media/${ORG}/chat/a b ü.jpg`]);
    expect(fake.requests.at(-1)!.auth).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/us-east-1\/s3\/aws4_request/);
  });

  it('stats (with the recorded type) and reads whole or by range', async () => {
    expect(await storage.stat(key)).toEqual({
      size: 11,
      etag: expect.any(String),
      lastModified: new Date('2026-01-01T00:00:00Z'),
      contentType: 'image/jpeg',
    });
    expect(await text(await storage.read(key))).toBe('hello world');
    expect(await text(await storage.read(key, { start: 6, end: 10 }))).toBe('world');
    expect(fake.requests.at(-1)!.range).toBe('bytes=6-10');
  });

  it('answers null for a missing object (HEAD 404 and GET NoSuchKey)', async () => {
    const missing = { bucket: 'message-media', name: `${ORG}/missing.jpg` };
    expect(await storage.stat(missing)).toBeNull();
    expect(await storage.read(missing)).toBeNull();
  });

  it('deletes, checks the bucket for readiness, and validates keys before any request', async () => {
    await storage.delete(key);
    expect(fake.objects.size).toBe(0);
    await expect(storage.check()).resolves.toBeUndefined();
    const before = fake.requests.length;
    await expect(storage.stat({ bucket: 'message-media', name: `${ORG}/../x` })).rejects.toThrow(/not allowed/);
    expect(fake.requests.length).toBe(before);
  });
});
