import { request } from 'node:http';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createOrg, createToken, randomSuffix, testEnv } from '@mapi/testing';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { COMPRESSION_THRESHOLD_BYTES } from './compression';

const sink = () => new Writable({ write: (_c, _e, done) => done() });

/** A raw HTTP exchange (fetch would decode the body and hide what went over the wire). */
function exchange(url: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer }) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Response compression at the gateway, against real NATS, Redis and Postgres. */
describe('gateway compression (integration)', () => {
  let stack: TestGateway;
  let prisma: PrismaClient;
  let token: string;
  const text = Array.from({ length: 400 }, (_, i) => `line ${i} of a long message body`).join('\n');

  beforeAll(async () => {
    prisma = createPrismaClient({ url: testEnv.databaseUrl(), poolSize: 2 });
    token = (await createToken(prisma, (await createOrg(prisma)).id)).token;
    const env = {
      ...process.env,
      DATABASE_URL: testEnv.databaseUrl(),
      REDIS_URL: testEnv.redisUrl(),
      NATS_URL: testEnv.natsUrl(),
      NAMESPACE: `gz${randomSuffix(3)}`,
      AUTH_CACHE_TTL_MS: '0',
    };
    stack = await startTestGateway({ env, gatewayLog: sink(), serviceLog: sink() });
  });

  afterAll(async () => {
    await stack?.close();
    await prisma?.$disconnect();
  });

  const echo = (acceptEncoding: string | null, body: unknown = { text }) =>
    exchange(`${stack.base}/v1/test/echo`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding }),
      },
      body: Buffer.from(JSON.stringify(body)),
    });

  it.each([
    ['br', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    ['gzip, deflate, br (brotli preferred)', 'br', brotliDecompressSync],
    ['gzip;q=1, br;q=0.5', 'gzip', gunzipSync],
  ])('compresses a JSON answer for Accept-Encoding %s', async (accept, encoding, decode) => {
    const res = await echo(accept.replace(/ \(.*\)$/, ''));
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    // the spec 4.1 headers are still there
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    const plain = decode(res.body);
    expect(JSON.parse(plain.toString('utf8'))).toMatchObject({ text });
    expect(res.body.length * 8).toBeLessThan(plain.length);
  });

  it('sends the body as it is without Accept-Encoding, or with identity only', async () => {
    for (const accept of [null, 'identity']) {
      const res = await echo(accept);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ text });
    }
  });

  it(`leaves answers under ${COMPRESSION_THRESHOLD_BYTES} bytes, and small error envelopes, uncompressed`, async () => {
    const small = await echo('gzip, br', { text: 'hi' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toMatchObject({ text: 'hi' });
    const invalid = await echo('gzip, br', { text: '' });
    expect(invalid.status).toBe(422);
    expect(invalid.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(invalid.body.toString('utf8'))).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
  });

  it.each([
    ['gzip', 'gzip', gunzipSync],
    ['br;q=0.9, gzip;q=0.5', 'br', brotliDecompressSync],
    ['*', 'br', brotliDecompressSync],
  ])(
    'takes a large answer (≥ 64 KiB) compressed by the service for Accept-Encoding %s, with its length known',
    async (accept, encoding, decode) => {
      const large = Array.from({ length: 4000 }, (_, i) => `line ${i} of a long message body`).join('\n');
      const res = await echo(accept, { text: large });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      // compressed before the NATS hop: a whole buffer with its length, not the plugin's chunked stream
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(JSON.parse(decode(res.body).toString('utf8'))).toMatchObject({ text: large });
    },
  );

  it('sends a large answer plain for x-no-compression, identity, or a refused encoding', async () => {
    const large = Array.from({ length: 4000 }, (_, i) => `line ${i}`).join('\n');
    const cases: Record<string, string>[] = [
      { 'accept-encoding': 'gzip', 'x-no-compression': '1' },
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ];
    for (const headers of cases) {
      const res = await exchange(`${stack.base}/v1/test/echo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: Buffer.from(JSON.stringify({ text: large })),
      });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ text: large });
    }
  });

  it('compresses the OpenAPI document (a large JSON answer outside the RPC routes)', async () => {
    const res = await exchange(`${stack.base}/v1/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.body).toString('utf8'))).toHaveProperty('openapi');
  });

  it('does not decompress requests: a gzipped body is read as sent (not JSON: 422), not inflated', async () => {
    const res = await exchange(`${stack.base}/v1/test/echo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ text: 'zipped' })),
    });
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
  });
});
