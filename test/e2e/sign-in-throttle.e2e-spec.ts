import { request } from 'node:http';
import { Redis } from 'ioredis';
import { createOrg, createToken, freePort, testEnv } from '@mapi/testing';
import { client, expectEnvelope } from './support/http';
import { startStack, type Stack } from './support/stack';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * The sign-in throttle against a guesser (gateway, members and the console server as processes):
 * the client address is not what X-Forwarded-For claims, and a burst of parallel guesses is counted
 * before any password is checked. Clients connect from their own loopback addresses (127.0.0.x),
 * the console server from 127.0.0.1, the only proxy address the gateway trusts here.
 */
describe('sign-in throttle: forged X-Forwarded-For and parallel guesses', () => {
  let stack: Stack;
  let redis: Redis;
  let consoleUrl: string;
  const PASSWORD = 'correct horse battery';

  /** POST /v1/auth/sign-in from the given local address (node:http: fetch cannot choose it). */
  const signIn = (base: string, from: string, body: object, headers: Record<string, string> = {}) =>
    new Promise<Reply>((resolve, reject) => {
      const url = new URL(`${base}/v1/auth/sign-in`);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          localAddress: from,
          headers: { 'content-type': 'application/json', ...headers },
        },
        (res) => {
          let text = '';
          res
            .setEncoding('utf8')
            .on('data', (d: string) => (text += d))
            .on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
        },
      );
      req.on('error', reject).end(JSON.stringify(body));
    });
  const addressKeys = () => redis.keys(`${stack.env.NAMESPACE}:signin:addr:*`);

  beforeAll(async () => {
    const port = await freePort();
    consoleUrl = `http://127.0.0.1:${port}`;
    stack = await startStack(
      {
        SIGN_IN_MAX_FAILURES_PER_ACCOUNT: '3',
        SIGN_IN_MAX_FAILURES_PER_ADDRESS: '5',
        SIGN_IN_WINDOW_SECONDS: '30',
        TRUST_PROXY_HOPS: '1',
        TRUST_PROXY_ADDRESSES: '127.0.0.1',
      },
      { services: ['members'] },
    );
    await stack.startService('console', { PORT: String(port), HOST: '127.0.0.1', CONSOLE_GATEWAY_URL: stack.baseUrl });
    redis = new Redis(testEnv.redisUrl());
    const org = await createOrg(stack.prisma);
    const api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    const invited = await api.post('/members/invite', { emails: ['amy@example.com'], role: 'admin' });
    const token = (invited.body.invitations[0].invite_url as string).split('#token=')[1];
    expect((await api.post('/auth/accept-invite', { token, password: PASSWORD })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await redis?.quit();
    await stack?.stop();
  }, 60_000);

  const forgedFailures = async (base: string, from: string, tag: string) => {
    for (let i = 0; i < 5; i++) {
      const res = await signIn(
        base,
        from,
        { email: `${tag}${i}@example.com`, password: 'wrong password' },
        { 'x-forwarded-for': `203.0.113.${i + 1}` },
      );
      expect(res.status).toBe(401);
    }
    const refused = await signIn(
      base,
      from,
      { email: `${tag}9@example.com`, password: 'wrong password' },
      { 'x-forwarded-for': '203.0.113.99, 198.51.100.1' },
    );
    expect(refused.status).toBe(429);
    expectEnvelope(refused.body, 'RATE_LIMIT_ERROR', 429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  };

  it("directly: a rotated X-Forwarded-For does not escape the per-address limit, and the address counted is the connection's", async () => {
    await forgedFailures(stack.baseUrl, '127.0.0.2', 'direct');
    expect(await redis.get(`${stack.env.NAMESPACE}:signin:addr:127.0.0.2`)).toBe('5');
    expect((await addressKeys()).filter((k) => /203\.0\.113|198\.51\.100/.test(k))).toEqual([]);
    // another client is not held back by this one
    expect((await signIn(stack.baseUrl, '127.0.0.9', { email: 'amy@example.com', password: PASSWORD })).status).toBe(200);
  });

  it('through the console server: the address counted is the one the console saw, not the forged one it passed on', async () => {
    await forgedFailures(consoleUrl, '127.0.0.3', 'console');
    expect(await redis.get(`${stack.env.NAMESPACE}:signin:addr:127.0.0.3`)).toBe('5');
    expect((await addressKeys()).filter((k) => /203\.0\.113|198\.51\.100|:127\.0\.0\.1$/.test(k))).toEqual([]);
  });

  it('a burst of parallel wrong guesses: at most the limit reach the password check, the rest are 429; the right password stays refused', async () => {
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => signIn(stack.baseUrl, '127.0.0.4', { email: 'amy@example.com', password: 'wrong password' })),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    for (const r of burst.filter((x) => x.status === 429)) {
      expectEnvelope(r.body, 'RATE_LIMIT_ERROR', 429);
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    const right = await signIn(stack.baseUrl, '127.0.0.5', { email: 'amy@example.com', password: PASSWORD });
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
  });
});
