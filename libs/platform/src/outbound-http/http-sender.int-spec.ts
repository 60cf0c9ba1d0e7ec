import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressPolicy } from './address-policy';
import { HttpSender, MAX_LOGGED_BODY_BYTES, type Resolver } from './http-sender';

/** The outgoing HTTP client against local servers: SSRF at connect time, no redirects, timeout, truncation. */
describe('HttpSender', () => {
  const hits: Record<string, IncomingMessage[]> = { main: [], target: [] };
  let main: Server;
  let target: Server;
  let port: number;
  let targetPort: number;
  const bodies: string[] = [];
  const allowLocal = new AddressPolicy(['127.0.0.1/32']);
  const senders: HttpSender[] = [];
  const sender = (policy = allowLocal, timeoutMs = 2_000, resolver?: Resolver) => {
    const s = new HttpSender(policy, timeoutMs, resolver);
    senders.push(s);
    return s;
  };

  beforeAll(async () => {
    target = createServer((req, res) => {
      hits.target.push(req);
      res.end('reached');
    });
    main = createServer((req, res) => {
      hits.main.push(req);
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        bodies.push(data);
        if (req.url === '/redirect') {
          res.writeHead(302, { location: `http://127.0.0.1:${targetPort}/` }).end();
        } else if (req.url === '/slow') {
          setTimeout(() => res.end('late'), 3_000).unref();
        } else if (req.url === '/big') {
          res.end('x'.repeat(100_000));
        } else if (req.url === '/busy') {
          res.writeHead(429, { 'retry-after': '120' }).end('slow down');
        } else {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        }
      });
    });
    await Promise.all([
      new Promise<void>((r) => main.listen(0, '127.0.0.1', r)),
      new Promise<void>((r) => target.listen(0, '127.0.0.1', r)),
    ]);
    port = (main.address() as AddressInfo).port;
    targetPort = (target.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const s of senders) s.close();
    main.closeAllConnections();
    target.closeAllConnections();
    await Promise.all([new Promise((r) => main.close(r)), new Promise((r) => target.close(r))]);
  });

  beforeEach(() => {
    hits.main.length = 0;
    hits.target.length = 0;
  });

  it('POSTs the body with the given headers to an allowed address', async () => {
    const r = await sender().send(`http://127.0.0.1:${port}/hook`, '{"a":1}', { 'webhook-id': 'evt' });
    expect(r).toMatchObject({ status: 200, timedOut: false, responseBody: 'ok', error: null });
    expect(hits.main[0].method).toBe('POST');
    expect(hits.main[0].headers).toMatchObject({ 'webhook-id': 'evt', 'content-type': 'application/json' });
    expect(bodies.at(-1)).toBe('{"a":1}');
  });

  it('sends other methods: GET without a body, PUT with its body and a content-type the caller gives', async () => {
    const s = sender();
    expect(await s.send(`http://127.0.0.1:${port}/get`, 'ignored', {}, 'GET')).toMatchObject({ status: 200 });
    expect(hits.main[0].method).toBe('GET');
    expect(hits.main[0].headers['content-length']).toBeUndefined();
    expect(bodies.at(-1)).toBe('');
    expect(await s.send(`http://127.0.0.1:${port}/put`, 'a=1', { 'content-type': 'text/plain' }, 'PUT')).toMatchObject({ status: 200 });
    expect(hits.main[1].method).toBe('PUT');
    expect(hits.main[1].headers['content-type']).toBe('text/plain');
    expect(bodies.at(-1)).toBe('a=1');
  });

  it('refuses loopback literals and names that resolve to loopback when not allowed, without connecting', async () => {
    const strict = sender(new AddressPolicy());
    const literal = await strict.send(`http://127.0.0.1:${port}/hook`, '{}', {});
    expect(literal.status).toBeNull();
    expect(literal.error).toMatch(/not allowed/);
    const named = await strict.send(`http://localhost:${port}/hook`, '{}', {});
    expect(named.status).toBeNull();
    expect(named.error).toMatch(/not allowed/);
    const mapped = await strict.send(`http://[::ffff:127.0.0.1]:${port}/hook`, '{}', {});
    expect(mapped.error).toMatch(/not allowed/);
    expect(hits.main).toHaveLength(0);
  });

  it('checks the address resolved at connect time (DNS rebinding): a name that now resolves to a private address is refused', async () => {
    let calls = 0;
    // First answer public (as a check at subscription time would have seen), then loopback.
    const rebinding: Resolver = (_host, cb) => cb(null, [{ address: calls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }]);
    rebinding('warm-up', () => undefined);
    const r = await sender(new AddressPolicy(), 2_000, rebinding).send(`http://rebind.test:${port}/hook`, '{}', {});
    expect(r.error).toMatch(/127\.0\.0\.1 is not allowed/);
    const mixed: Resolver = (_host, cb) =>
      cb(null, [
        { address: '93.184.216.34', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ]);
    const r2 = await sender(new AddressPolicy(), 2_000, mixed).send(`http://mixed.test:${port}/hook`, '{}', {});
    expect(r2.error).toMatch(/169\.254\.169\.254 is not allowed/);
    expect(hits.main).toHaveLength(0);
  });

  it('never follows a redirect: the 3xx is the answer and the target is never visited', async () => {
    const r = await sender().send(`http://127.0.0.1:${port}/redirect`, '{}', {});
    expect(r.status).toBe(302);
    expect(r.error).toMatch(/redirect \(302\) not followed/);
    await new Promise((res) => setTimeout(res, 100));
    expect(hits.target).toHaveLength(0);
  });

  it('gives up after the timeout', async () => {
    const started = Date.now();
    const r = await sender(allowLocal, 300).send(`http://127.0.0.1:${port}/slow`, '{}', {});
    expect(r).toMatchObject({ status: null, timedOut: true });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('keeps the first 20 kB of the answer, and its Retry-After', async () => {
    const big = await sender().send(`http://127.0.0.1:${port}/big`, '{}', {});
    expect(big.status).toBe(200);
    expect(big.responseBody).toHaveLength(MAX_LOGGED_BODY_BYTES);
    const busy = await sender().send(`http://127.0.0.1:${port}/busy`, '{}', {});
    expect(busy).toMatchObject({ status: 429, retryAfter: '120', responseBody: 'slow down' });
  });
});
