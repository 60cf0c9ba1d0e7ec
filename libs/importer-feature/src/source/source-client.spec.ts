import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressPolicy } from '@mapi/platform';
import { FileFetchError, SourceClient, waitFrom } from './source-client';
import { SourceError } from './source-error';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void;

/** A real HTTP server on loopback answering each request with the next handler (the last repeats). */
async function serve(handlers: Handler[]) {
  let n = 0;
  const seen: { url: string; auth: string | undefined; at: number }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', auth: req.headers.authorization, at: Date.now() });
    const h = handlers[Math.min(n, handlers.length - 1)];
    h(req, res, n++);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { base, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

const client = (base: string, extra: Partial<ConstructorParameters<typeof SourceClient>[0]> = {}) =>
  new SourceClient({
    baseUrl: base,
    token: 'tok',
    policy: new AddressPolicy(['127.0.0.1/32']),
    rate: 1000,
    concurrency: 4,
    attempts: 4,
    timeoutMs: 2000,
    ...extra,
  });

describe('SourceClient', () => {
  it('reads JSON with the bearer token and the query', async () => {
    const s = await serve([json({ ok: 1 })]);
    try {
      expect(await client(s.base).get('/chats', { offset: 0, limit: 5 })).toEqual({ ok: 1 });
      expect(s.seen[0]).toMatchObject({ url: '/v1/chats?offset=0&limit=5', auth: 'Bearer tok' });
    } finally {
      await s.close();
    }
  });

  it('waits as Retry-After says on 429, then succeeds', async () => {
    const s = await serve([json({ message: 'slow down' }, 429, { 'retry-after': '1' }), json({ ok: 2 })]);
    try {
      const c = client(s.base);
      expect(await c.get('/x')).toEqual({ ok: 2 });
      expect(s.seen[1].at - s.seen[0].at).toBeGreaterThanOrEqual(950);
      expect(c.retries).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('retries 5xx and a truncated JSON body, then answers', async () => {
    const truncated: Handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"chats": [');
    };
    const s = await serve([json({}, 503), truncated, json({ ok: 3 })]);
    try {
      expect(await client(s.base).get('/x')).toEqual({ ok: 3 });
      expect(s.seen).toHaveLength(3);
    } finally {
      await s.close();
    }
  });

  it('gives up on a source that keeps failing, saying a rerun resumes', async () => {
    const s = await serve([json({}, 502)]);
    try {
      await expect(client(s.base, { attempts: 2 }).get('/x')).rejects.toMatchObject({
        code: 'SOURCE_UNAVAILABLE',
        retryable: true,
        message: expect.stringContaining('rerun to resume'),
      });
    } finally {
      await s.close();
    }
  });

  it.each([
    [401, 'SOURCE_UNAUTHORIZED'],
    [403, 'SOURCE_FORBIDDEN'],
    [400, 'SOURCE_BAD_RESPONSE'],
  ])('refuses %i at once with %s', async (status, code) => {
    const s = await serve([json({ message: 'no' }, status)]);
    try {
      await expect(client(s.base).get('/x')).rejects.toMatchObject({ code });
      expect(s.seen).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it('answers null for 404 (a route the source does not have)', async () => {
    const s = await serve([json({ message: 'nope' }, 404)]);
    try {
      expect(await client(s.base).get('/labels')).toBeNull();
    } finally {
      await s.close();
    }
  });

  it('says a page of HTML is not the API', async () => {
    const html: Handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Login</title>');
    };
    const s = await serve([html]);
    try {
      await expect(client(s.base).get('/phones/all')).rejects.toMatchObject({
        code: 'SOURCE_NOT_HOSTED_API',
        message: expect.stringContaining('HTML'),
      });
    } finally {
      await s.close();
    }
  });

  it("downloads a file: the API token only to the API origin, a link's token kept out of errors", async () => {
    const api = await serve([json({})]);
    const files = await serve([
      (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end('bytes'),
      (_req, res) => res.writeHead(403, { 'content-type': 'application/json' }).end('{}'),
    ]);
    try {
      const c = client(api.base);
      const link = `${files.base.replace('/v1', '')}/app/media/b/o/f.png?jwt=secret-token`;
      expect(await c.download(link, 100)).toEqual({ body: Buffer.from('bytes'), contentType: 'image/png' });
      expect(files.seen[0].auth).toBeUndefined();
      const refused = await c.download(link, 100).catch((e: Error) => e);
      expect(refused).toBeInstanceOf(FileFetchError);
      expect((refused as Error).message).toBe('the source answered 403 for the file');
      expect(await c.download(`${api.base.replace('/v1', '')}/app/media/b/o/f.png`, 100).then(() => api.seen[0].auth)).toBe('Bearer tok');
    } finally {
      await Promise.all([api.close(), files.close()]);
    }
  });

  it('cuts a body that never ends at the request timeout', async () => {
    const endless: Handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const t = setInterval(() => res.write('1,'), 50);
      res.on('close', () => clearInterval(t));
    };
    const s = await serve([endless]);
    try {
      await expect(client(s.base, { timeoutMs: 300, attempts: 1 }).get('/x')).rejects.toBeInstanceOf(SourceError);
    } finally {
      await s.close();
    }
  });

  it('refuses a loopback source unless the policy allows it', async () => {
    const s = await serve([json({ ok: 1 })]);
    try {
      await expect(client(s.base, { policy: new AddressPolicy([]) }).get('/x')).rejects.toMatchObject({ code: 'SOURCE_ADDRESS_BLOCKED' });
      expect(s.seen).toHaveLength(0);
    } finally {
      await s.close();
    }
  });

  it('keeps at most `concurrency` requests in flight and spaces starts to the rate', async () => {
    let inFlight = 0;
    let most = 0;
    const slow: Handler = (_req, res) => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        json({ ok: 1 })(_req, res, 0);
      }, 60);
    };
    const s = await serve([slow]);
    try {
      const c = client(s.base, { concurrency: 2, rate: 50 });
      const started = Date.now();
      await Promise.all(Array.from({ length: 6 }, () => c.get('/x')));
      expect(most).toBe(2);
      expect(Date.now() - started).toBeGreaterThanOrEqual(5 * 20 - 5);
    } finally {
      await s.close();
    }
  });
});

describe('waitFrom', () => {
  const now = Date.parse('2026-11-29T00:00:00Z');
  it('reads Retry-After seconds and dates, and an exhausted X-RateLimit window', () => {
    expect(waitFrom({ headers: { 'retry-after': '3' } }, now)).toBe(3000);
    expect(waitFrom({ headers: { 'retry-after': 'Sun, 29 Nov 2026 00:00:02 GMT' } }, now)).toBe(2000);
    expect(waitFrom({ headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 4) } }, now)).toBe(4000);
    expect(waitFrom({ headers: { 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': '4' } }, now)).toBeNull();
    expect(waitFrom({ headers: { 'retry-after': '999' } }, now)).toBe(60_000);
  });
});
