import { AppProcess, createMessages, createOrg, createPhone, createToken, freePort, randomDigits } from '@mapi/testing';
import { startStack, type Stack } from './support/stack';

/**
 * The gateway's error envelope over HTTP against started processes: malformed JSON, an over-size
 * body, an unsupported content type, a service that does not answer in time, a service that is not
 * running, and an uncaught service error (500 with an error id that the service logged).
 */
describe('gateway errors end to end', () => {
  let stack: Stack;
  let slowGateway: AppProcess;
  let slowUrl: string;
  const w: Record<string, any> = {};
  const post = (base: string, path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json', ...headers },
      body,
    }).then(async (r) => ({
      status: r.status,
      headers: Object.fromEntries(r.headers),
      text: await r.text(),
    }));
  const noStack = (text: string) => expect(text).not.toMatch(/\bat .+:\d+:\d+|node_modules|\.ts:\d+/);

  beforeAll(async () => {
    // No phones service in this stack: its routes have no responder.
    stack = await startStack({ BODY_LIMIT_BYTES: '2048', RPC_UNAVAILABLE_RETRY_MS: '300' });
    const org = await createOrg(stack.prisma);
    w.token = (await createToken(stack.prisma, org.id)).token;
    w.phone = await createPhone(stack.prisma, org.id);
    w.chat = `${randomDigits()}@c.us`;
    w.broken = `${randomDigits()}@c.us`;
    await createMessages(stack.prisma, org, w.phone, [{ chatId: w.chat }]);
    // a stored row that breaks the message contract (delivery_info must be an object): the chats
    // service (NODE_ENV=test checks its replies) fails on it
    await createMessages(stack.prisma, org, w.phone, [{ chatId: w.broken, overrides: { delivery_info: 'corrupt' } }]);
    const port = await freePort();
    slowGateway = AppProcess.start('api-gateway', { ...stack.env, PORT: String(port), HOST: '127.0.0.1', RPC_TIMEOUT_MS: '1' });
    slowUrl = `http://127.0.0.1:${port}`;
    await slowGateway.waitReady(`${slowUrl}/health/ready`);
  }, 120_000);

  afterAll(async () => {
    await slowGateway?.stop();
    await stack?.stop();
  }, 60_000);

  it('answers malformed JSON with 422 VALIDATION_ERROR', async () => {
    const res = await post(stack.baseUrl, '/sandbox/messages', '{"chat_id": ', { 'x-phone': w.phone.phone_id });
    expect(res.status).toBe(422);
    expect(JSON.parse(res.text)).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 422,
      fields: { body: { message: expect.any(String) } },
    });
  });

  it('answers an over-size body with 413 and an unsupported content type with 415', async () => {
    const big = await post(stack.baseUrl, '/sandbox/messages', JSON.stringify({ chat_id: '123456', body: 'x'.repeat(5000) }), {
      'x-phone': w.phone.phone_id,
    });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.text)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE_ERROR', status: 413 });
    const form = await post(stack.baseUrl, '/sandbox/messages', 'chat_id=1', {
      'content-type': 'application/x-www-form-urlencoded',
      'x-phone': w.phone.phone_id,
    });
    expect(form.status).toBe(415);
    expect(JSON.parse(form.text)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE_ERROR', status: 415 });
  });

  it('answers 503 SERVICE_UNAVAILABLE_ERROR with Retry-After when no instance of the service runs within RPC_UNAVAILABLE_RETRY_MS', async () => {
    const started = Date.now();
    const res = await post(stack.baseUrl, '/sandbox/messages', JSON.stringify({ chat_id: '123456', body: 'hi' }), {
      'x-phone': w.phone.phone_id,
    });
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'SERVICE_UNAVAILABLE_ERROR', status: 503 });
    expect(res.headers['retry-after']).toBe('1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('answers 504 TIMEOUT_ERROR when the service does not answer in time', async () => {
    const res = await fetch(`${slowUrl}/v1/chats/${w.chat}/messages`, { headers: { authorization: `Bearer ${w.token}` } });
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ code: 'TIMEOUT_ERROR', status: 504 });
  });

  it('answers an uncaught service error with 500 UNKNOWN_ERROR and an id the service logged, and no internals', async () => {
    const res = await fetch(`${stack.baseUrl}/v1/chats/${w.broken}/messages`, { headers: { authorization: `Bearer ${w.token}` } });
    const text = await res.text();
    expect(res.status).toBe(500);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ code: 'UNKNOWN_ERROR', status: 500, error_id: expect.any(String) });
    noStack(text);
    expect(text).not.toMatch(/delivery_info|contract/);
    await new Promise((r) => setTimeout(r, 300));
    const logged = stack.chats.lines.map((l) => JSON.parse(l)).find((l) => l.error_id === body.error_id);
    expect(logged).toMatchObject({ level: 'error', msg: 'unhandled error' });
  });
});
