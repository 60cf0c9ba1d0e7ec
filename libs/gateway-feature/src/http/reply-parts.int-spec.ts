import { request } from 'node:http';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createOrg, createToken, randomSuffix, testEnv } from '@mapi/testing';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';

const sink = () => new Writable({ write: (_c, _e, done) => done() });

/** A raw HTTP exchange: the bytes and headers as they went over the wire. */
function exchange(url: string, headers: Record<string, string>, body: Buffer) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A reply the service sends in many NATS chunks (over 256 KiB) goes out as those chunks, not joined
 * first (reply-parts.ts): the client gets the same bytes, with their length, whatever the path.
 */
describe('gateway: a chunked reply written as its parts (integration)', () => {
  let stack: TestGateway;
  let prisma: PrismaClient;
  let token: string;
  // multi-byte characters straddle the 16 KiB chunk boundaries somewhere
  const large = Array.from({ length: 12_000 }, (_, i) => `line ${i} é 中文 😀 of a long message body`).join('\n');

  beforeAll(async () => {
    prisma = createPrismaClient({ url: testEnv.databaseUrl(), poolSize: 2 });
    token = (await createToken(prisma, (await createOrg(prisma)).id)).token;
    const env = {
      ...process.env,
      DATABASE_URL: testEnv.databaseUrl(),
      REDIS_URL: testEnv.redisUrl(),
      NATS_URL: testEnv.natsUrl(),
      NAMESPACE: `parts${randomSuffix(3)}`,
      AUTH_CACHE_TTL_MS: '0',
    };
    stack = await startTestGateway({ env, gatewayLog: sink(), serviceLog: sink() });
  });

  afterAll(async () => {
    await stack?.close();
    await prisma?.$disconnect();
  });

  const echo = (headers: Record<string, string>) =>
    exchange(
      `${stack.base}/v1/test/echo`,
      { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      Buffer.from(JSON.stringify({ text: large })),
    );

  it('sends a large plain answer byte for byte, with its content-length and the route headers', async () => {
    const cases: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip', 'x-no-compression': '1' }];
    for (const headers of cases) {
      const res = await echo(headers);
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(256 * 1024);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['transfer-encoding']).toBeUndefined();
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-ratelimit-limit']).toBeDefined();
      expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ text: large });
    }
  });

  it('still takes it compressed by the service when asked', async () => {
    const res = await echo({ 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.body).toString('utf8'))).toMatchObject({ text: large });
  });
});
