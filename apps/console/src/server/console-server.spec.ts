import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadAssets } from './assets';
import { createConsoleServer } from './console-server';
import { upstreamPath } from './proxy';

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('the console server: pages under /console/, /v1 and the socket forwarded to the gateway', () => {
  const seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let gateway: Server;
  let server: Server;
  let base: string;
  const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-web-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'assets', 'index-abc.js'), script);
    gateway = createServer((req, res) => {
      let body = '';
      req
        .on('data', (d) => (body += d))
        .on('end', () => {
          seen.push({ method: req.method, url: req.url, headers: req.headers, body });
          res.writeHead(201, { 'content-type': 'application/json', 'set-cookie': 'mapi_csrf=1; Path=/' });
          res.end(JSON.stringify({ ok: true }));
        });
    });
    const gatewayUrl = await listen(gateway);
    server = createConsoleServer({ assets: loadAssets(dir), gateway: { base: new URL(gatewayUrl), timeoutMs: 2_000 } });
    base = await listen(server);
  });

  afterAll(async () => {
    await close(server);
    await close(gateway).catch(() => undefined);
  });

  it('serves index.html for every page below /console/ with a strict CSP, and redirects / there', async () => {
    for (const path of ['/console/', '/console/phones', '/console/chats/1%40c.us?phone=1']) {
      const res = await fetch(`${base}${path}`);
      expect([path, res.status, res.headers.get('cache-control')]).toEqual([path, 200, 'no-cache']);
      expect(await res.text()).toContain('<title>console</title>');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/console/']);
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });

  it('serves hashed files gzipped and immutable; a missing one is a 404, not the page', async () => {
    const res = await fetch(`${base}/console/assets/index-abc.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await res.text()).toBe(script); // fetch gunzips; the raw answer below is gzip
    const raw = await new Promise<Buffer>((resolve) => {
      request(`${base}/console/assets/index-abc.js`, { headers: { 'accept-encoding': 'gzip' } }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks)));
      }).end();
    });
    expect(gunzipSync(raw).toString()).toBe(script);
    expect((await fetch(`${base}/console/assets/index-old.js`)).status).toBe(404);
  });

  it('answers a malformed escape in the path with 404 and keeps serving', async () => {
    expect((await fetch(`${base}/console/%E0`)).status).toBe(404);
    expect((await fetch(`${base}/console/phones`)).status).toBe(200);
  });

  it('forwards /v1 with its body, cookies and headers, and the client address appended to x-forwarded-for', async () => {
    const res = await fetch(`${base}/v1/auth/sign-in?x=1`, {
      method: 'POST',
      headers: { cookie: 'mapi_session=s', 'x-csrf-token': 't', 'x-forwarded-for': '203.0.113.9', 'content-type': 'application/json' },
      body: '{"email":"a@b.c"}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('set-cookie')).toBe('mapi_csrf=1; Path=/');
    const last = seen[seen.length - 1];
    expect(last).toMatchObject({ method: 'POST', url: '/v1/auth/sign-in?x=1', body: '{"email":"a@b.c"}' });
    expect(last.headers).toMatchObject({
      cookie: 'mapi_session=s',
      'x-csrf-token': 't',
      'x-forwarded-for': '203.0.113.9, 127.0.0.1',
      'x-forwarded-proto': 'http',
    });
  });

  it("maps the socket at /v1/socket.io to the gateway's /socket.io (where the Path=/v1 cookie goes along)", async () => {
    expect(upstreamPath('/v1/socket.io/?EIO=4&transport=polling')).toBe('/socket.io/?EIO=4&transport=polling');
    expect(upstreamPath('/v1/phones/all')).toBe('/v1/phones/all');
    expect(upstreamPath('/v1/socket.iox')).toBe('/v1/socket.iox');
    await fetch(`${base}/v1/socket.io/?EIO=4&transport=polling`, { headers: { cookie: 'mapi_session=s' } });
    expect(seen[seen.length - 1]).toMatchObject({
      url: '/socket.io/?EIO=4&transport=polling',
      headers: expect.objectContaining({ cookie: 'mapi_session=s' }),
    });
  });

  it('answers 502 with the error envelope while the gateway is down', async () => {
    await close(gateway);
    const res = await fetch(`${base}/v1/phones/all`);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE_ERROR', status: 502 });
  });
});

describe('the console server with CONSOLE_MEDIA_URL: message files forwarded to the media app', () => {
  it('forwards /app/media/* (query kept) to the media app and nothing else there; without it, /app/media is a 404', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-web-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    const urls: string[] = [];
    const media = createServer((req, res) => {
      urls.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end('png');
    });
    const mediaUrl = await listen(media);
    const gateway = { base: new URL('http://127.0.0.1:9'), timeoutMs: 1_000 };
    const withMedia = createConsoleServer({ assets: loadAssets(dir), gateway, media: { base: new URL(mediaUrl), timeoutMs: 1_000 } });
    const without = createConsoleServer({ assets: loadAssets(dir), gateway });
    const [a, b] = [await listen(withMedia), await listen(without)];
    try {
      const res = await fetch(`${a}/app/media/message-media/org/chat/a%20b.png?jwt=t`);
      expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([200, 'image/png', 'png']);
      expect(urls).toEqual(['/app/media/message-media/org/chat/a%20b.png?jwt=t']);
      expect((await fetch(`${a}/app/mediax`)).status).toBe(404);
      expect((await fetch(`${b}/app/media/message-media/org/x.png`)).status).toBe(404);
    } finally {
      await Promise.all([close(withMedia), close(without), close(media)]);
    }
  });
});
