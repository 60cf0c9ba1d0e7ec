import { Writable } from 'node:stream';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { PhoneDirectoryRpc } from '@mapi/contracts';
import { bindHandlers, checkReadiness, createLogger, rpcHandler } from '@mapi/platform';
import { createOrg, createPhone, createToken, phoneDirectoryFromDb, randomSuffix, testEnv } from '@mapi/testing';
import { loadGatewayConfig } from './bootstrap';
import { GatewayRuntime } from './gateway-runtime';
import { startTestGateway, type TestGateway } from './testing/test-gateway';

/** Collects JSON log lines in memory, to check what the gateway and a service write. */
const memoryLog = () => {
  const lines: string[] = [];
  const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(...String(chunk).split('\n').filter(Boolean)), done()) });
  return { lines, stream };
};

/**
 * The gateway's pipeline and every error path, against real Postgres, Redis and NATS, with a test
 * service answering over NATS (echo, slow, failing) and one subject nobody serves.
 */
describe('gateway (integration)', () => {
  const namespace = `gw${randomSuffix(3)}`;
  const gwLog = memoryLog();
  const svcLog = memoryLog();
  let stack: TestGateway;
  let prisma: PrismaClient;
  let base: string;
  let token: string;
  let limitedToken: string;
  let phone: { phone_id: string };

  const env = {
    ...process.env,
    DATABASE_URL: testEnv.databaseUrl(),
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    BODY_LIMIT_BYTES: '1024',
    RPC_TIMEOUT_MS: '400',
    RPC_UNAVAILABLE_RETRY_MS: '150',
    AUTH_CACHE_TTL_MS: '0',
    RATE_LIMIT_ROUTES: JSON.stringify({ 'POST /test/limited': 2 }),
  };

  beforeAll(async () => {
    prisma = createPrismaClient({ url: testEnv.databaseUrl(), poolSize: 2 });
    const org = await createOrg(prisma);
    token = (await createToken(prisma, org.id)).token;
    phone = await createPhone(prisma, org.id);
    const slowOrg = await createOrg(prisma, { rate_limit_per_second: 3 });
    limitedToken = (await createToken(prisma, slowOrg.id)).token;

    // x-phone is resolved by the phones service (phones.v1.directory); here a stand-in answers from the same rows.
    const directory = bindHandlers([rpcHandler<void>()(PhoneDirectoryRpc, () => ({ execute: phoneDirectoryFromDb(prisma) }))], undefined);
    stack = await startTestGateway({ env, gatewayLog: gwLog.stream, serviceLog: svcLog.stream, handlers: directory });
    base = stack.base;
  });

  afterAll(async () => {
    await stack?.close();
    await prisma?.$disconnect();
  });

  const call = async (
    method: string,
    path: string,
    init: { body?: string; headers?: Record<string, string>; auth?: string | null } = {},
  ) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.auth !== null) headers.authorization = `Bearer ${init.auth ?? token}`;
    const res = await fetch(`${base}/v1${path}`, { method, headers, body: init.body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  };
  const json = { 'content-type': 'application/json' };

  it('forwards a validated body and the request context, and passes the answer through', async () => {
    const res = await call('POST', '/test/echo', { body: JSON.stringify({ text: 'hi' }), headers: { ...json, 'x-phone': phone.phone_id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: 'hi', org_id: expect.any(String), phone_id: phone.phone_id, idempotency_key: null });
    expect(res.headers.get('x-service-phone-id')).toBe(phone.phone_id);
  });

  it('forwards only the request headers a route asks for', async () => {
    const res = await call('POST', '/test/echo', {
      body: JSON.stringify({ text: 'hi' }),
      headers: { ...json, 'idempotency-key': 'k-1', 'x-other': 'no' },
    });
    expect(res.body.idempotency_key).toBe('k-1');
  });

  it('answers malformed JSON with 422 VALIDATION_ERROR on the body', async () => {
    const res = await call('POST', '/test/echo', { body: '{"text": ', headers: json });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', status: 422, fields: { body: { message: expect.any(String) } } });
  });

  it('answers a missing or wrong body field with 422 keyed body.<field>', async () => {
    const res = await call('POST', '/test/echo', { body: JSON.stringify({ n: 'x' }), headers: json });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.fields).sort()).toEqual(['body.n', 'body.text']);
    expect(res.body.fields['body.text']).toEqual({ message: expect.any(String) });
  });

  it('answers an over-size body with 413 in the envelope', async () => {
    const res = await call('POST', '/test/echo', { body: JSON.stringify({ text: 'x'.repeat(4096) }), headers: json });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE_ERROR', status: 413 });
  });

  it('answers a body that is not JSON with 415 in the envelope', async () => {
    const res = await call('POST', '/test/echo', { body: 'text=hi', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE_ERROR', status: 415 });
  });

  it("answers the router's refusals (a too-long path parameter, a malformed URL) with 422 in the envelope", async () => {
    for (const path of [`/test/items/${'x'.repeat(3000)}`, '/test/items/%E0%A4%A']) {
      const res = await call('GET', path);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', status: 422, fields: { path: { message: expect.any(String) } } });
    }
  });

  it('takes an empty JSON body as no body', async () => {
    const empty = await call('POST', '/test/optional', { body: '', headers: json });
    expect(empty.body).toEqual({ mode: 'all' });
    const none = await call('POST', '/test/optional');
    expect(none.body).toEqual({ mode: 'all' });
    const some = await call('POST', '/test/optional', { body: JSON.stringify({ ids: ['a'] }), headers: json });
    expect(some.body).toEqual({ mode: 'ids' });
  });

  it('requires x-phone where the route says so, and answers 204 without a body', async () => {
    const missing = await call('POST', '/test/needs-phone');
    expect(missing.status).toBe(422);
    expect(missing.body.fields['x-phone']).toEqual({ message: 'x-phone header is required', value: null });
    const ok = await call('POST', '/test/needs-phone', { headers: { 'x-phone': phone.phone_id } });
    expect(ok.status).toBe(204);
    expect(ok.text).toBe('');
  });

  it('lets a service choose the HTTP status and body (HttpReply), passed through as is', async () => {
    const res = await call('GET', '/test/status');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'This URL belongs to a different organization' });
  });

  it('answers 504 TIMEOUT_ERROR when the service does not answer in time', async () => {
    const started = Date.now();
    const res = await call('GET', '/test/slow');
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({ code: 'TIMEOUT_ERROR', status: 504 });
    expect(Date.now() - started).toBeLessThan(1_400);
  });

  it('answers 503 SERVICE_UNAVAILABLE_ERROR with Retry-After once RPC_UNAVAILABLE_RETRY_MS passes with no instance', async () => {
    const started = Date.now();
    const res = await call('GET', '/test/nobody');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE_ERROR', status: 503 });
    expect(res.headers.get('retry-after')).toBe('1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(120);
    expect(Date.now() - started).toBeLessThan(400);
  });

  it('answers an uncaught service error with 500 UNKNOWN_ERROR whose id is logged, never the internals', async () => {
    const res = await call('GET', '/test/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      code: 'UNKNOWN_ERROR',
      status: 500,
      message: expect.stringContaining(res.body.error_id),
      error_id: expect.any(String),
    });
    expect(res.text).not.toContain('secret internals');
    expect(res.text).not.toContain('boom.ts');
    const logged = svcLog.lines.map((l) => JSON.parse(l)).find((l) => l.error_id === res.body.error_id);
    expect(logged).toMatchObject({ level: 'error', err: { message: expect.stringContaining('secret internals') } });
  });

  it('limits requests per token per second across the organization setting, with 429 and Retry-After', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call('POST', '/test/echo', { auth: limitedToken, body: '{"text":"a"}', headers: json })),
    );
    const denied = results.filter((r) => r.status === 429);
    expect(denied.length).toBeGreaterThanOrEqual(2);
    for (const r of denied) {
      expect(r.body).toMatchObject({ code: 'RATE_LIMIT_ERROR', status: 429, message: expect.stringContaining('3 requests per second') });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(r.headers.get('x-ratelimit-limit')).toBe('3');
    }
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(3);
  });

  it('counts a route with its own limit (RATE_LIMIT_ROUTES) in its own bucket', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => call('POST', '/test/limited', { body: '{"text":"a"}', headers: json })),
    );
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(2);
    expect(results.every((r) => r.headers.get('x-ratelimit-limit') === '2')).toBe(true);
    const other = await call('POST', '/test/echo', { body: '{"text":"a"}', headers: json });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('never writes the bearer token to the logs', () => {
    const all = [...gwLog.lines, ...svcLog.lines].join('\n');
    expect(gwLog.lines.length).toBeGreaterThan(5);
    expect(all).not.toContain(token);
    expect(all).not.toContain(limitedToken);
  });

  it('serves the OpenAPI 3.1 document and a reference page without a token', async () => {
    const doc = (await fetch(`${base}/v1/openapi.json`).then((r) => r.json())) as any;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/test/echo'].post.requestBody.content['application/json'].schema.required).toEqual(['text']);
    const page = await fetch(`${base}/v1/docs`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('openapi.json');
  });

  it('is live and ready while Postgres, Redis and NATS answer; not ready when one does not', async () => {
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as any).checks).toMatchObject({
      postgres: { status: 'up' },
      redis: { status: 'up' },
      nats: { status: 'up' },
    });
    const broken = await GatewayRuntime.open(loadGatewayConfig({ ...env, REDIS_URL: 'redis://127.0.0.1:1' }), createLogger('t', 'silent'));
    try {
      const report = await checkReadiness(broken.indicators, 1_000);
      expect(report.status).toBe('error');
      expect(report.checks.redis.status).toBe('down');
      expect(report.checks.postgres.status).toBe('up');
    } finally {
      await broken.close();
    }
  });
});
