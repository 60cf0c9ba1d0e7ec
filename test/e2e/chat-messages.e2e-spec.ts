import { MessageSchema } from '@mapi/contracts';
import { createMessages, createOrg, createPhone, createToken, randomDigits } from '@mapi/testing';
import { getJson, startStack, type Stack } from './support/stack';

/** GET /v1/chats/{chat_id}/messages end to end: gateway and chats as processes, real Postgres/Redis/NATS. */
describe('GET /v1/chats/{chat_id}/messages', () => {
  let stack: Stack;
  let url: (chat: string, qs?: string) => string;
  const auth = (token: string, extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${token}`, ...extra });
  const w: Record<string, any> = {};

  beforeAll(async () => {
    stack = await startStack({}, { services: ['phones'] }); // phones answers x-phone lookups (phones.v1.directory)
    url = (chat, qs = '') => `${stack.baseUrl}/v1/chats/${encodeURIComponent(chat)}/messages${qs}`;
    const p = stack.prisma;
    w.orgA = await createOrg(p);
    w.orgB = await createOrg(p);
    w.p1 = await createPhone(p, w.orgA.id);
    w.p2 = await createPhone(p, w.orgA.id);
    w.deleted = await createPhone(p, w.orgA.id, { deleted_at: new Date() });
    w.q1 = await createPhone(p, w.orgB.id);
    w.digits = randomDigits();
    w.chat = `${w.digits}@c.us`;
    w.group = `1203630${randomDigits(11)}@g.us`;
    const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 10, m));
    await createMessages(
      p,
      w.orgA,
      w.p1,
      [0, 2, 4, 6, 8].map((m) => ({ chatId: w.chat, timestamp: at(m), fromMe: m % 4 === 0 })),
    );
    await createMessages(
      p,
      w.orgA,
      w.p2,
      [1, 3, 5].map((m) => ({ chatId: w.chat, timestamp: at(m) })),
    );
    await createMessages(
      p,
      w.orgA,
      w.p1,
      [7, 9].map((m) => ({ chatId: w.group, timestamp: at(m) })),
    );
    await createMessages(
      p,
      w.orgB,
      w.q1,
      [10, 11].map((m) => ({ chatId: w.chat, timestamp: at(m) })),
    );
    w.tA = (await createToken(p, w.orgA.id)).token;
    w.tA1 = (await createToken(p, w.orgA.id, { phoneIds: [w.p1.phone_id] })).token;
    w.tRevoked = (await createToken(p, w.orgA.id, { revoked: true })).token;
    w.tB = (await createToken(p, w.orgB.id)).token;
    const free = await createOrg(p, { plan: 'free' });
    w.tFree = (await createToken(p, free.id)).token;
    const lapsed = await createOrg(p, { plan: 'enterprise', plan_active: false });
    w.tLapsed = (await createToken(p, lapsed.id)).token;
  }, 120_000);

  afterAll(() => stack?.stop());

  describe('answers', () => {
    it('every phone the token reaches, newest first, each message exactly in the shape of spec 2.1', async () => {
      const res = await getJson(url(w.chat), auth(w.tA));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ from: 1, to: 8, count: 8 });
      expect(res.body.messages).toHaveLength(8);
      const times = res.body.messages.map((m: any) => Date.parse(m.timestamp));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      for (const m of res.body.messages) {
        expect(MessageSchema.safeParse(m).success).toBe(true);
        expect(Object.keys(m).sort()).toEqual(Object.keys(MessageSchema.shape).sort());
        expect(m.org_id).toBe(w.orgA.id);
        expect(m.message_id).toBe(`${m.from_me}_${w.chat}_${m.unique_id}`);
        expect(m.id).toEqual({ from_me: m.from_me, id: m.unique_id, remote: w.chat, serialized: m.message_id });
        expect(m.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
        expect(m.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
        expect(typeof m.ack).toBe('string');
        expect(m.author).toBeNull();
        expect(m.vcards).toBeNull();
      }
      expect(new Set(res.body.messages.map((m: any) => m.org_phone))).toEqual(new Set([w.p1.org_phone, w.p2.org_phone]));
      expect(res.headers.get('x-service-org-id')).toBe(w.orgA.id);
      expect(res.headers.get('x-service-phone-id')).toBeNull();
      expect(res.headers.get('x-service-trace-id')).toMatch(/^[0-9a-f]{32}$/);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('treats digits and digits@c.us as the same chat', async () => {
      const a = await getJson(url(w.digits), auth(w.tA));
      const b = await getJson(url(w.chat), auth(w.tA));
      expect(a.status).toBe(200);
      expect(a.body.messages.map((m: any) => m.message_id)).toEqual(b.body.messages.map((m: any) => m.message_id));
    });

    it('serves group chats', async () => {
      const res = await getJson(url(w.group), auth(w.tA));
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(2);
      expect(res.body.messages.every((m: any) => m.chat_id === w.group)).toBe(true);
    });

    it('narrows to the x-phone phone, by phone_id or by digits', async () => {
      const byId = await getJson(url(w.chat), auth(w.tA, { 'x-phone': w.p1.phone_id }));
      expect(byId.status).toBe(200);
      expect(byId.body.count).toBe(5);
      expect(byId.body.messages.every((m: any) => m.org_phone === w.p1.org_phone)).toBe(true);
      expect(byId.headers.get('x-service-phone-id')).toBe(w.p1.phone_id);
      const byDigits = await getJson(url(w.chat), auth(w.tA, { 'x-phone': w.p2.org_phone.replace('@c.us', '') }));
      expect(byDigits.body.count).toBe(3);
      expect(byDigits.headers.get('x-service-phone-id')).toBe(w.p2.phone_id);
    });

    it('keeps a phone-scoped token to its phones', async () => {
      const res = await getJson(url(w.chat), auth(w.tA1));
      expect(res.body.count).toBe(5);
      expect(res.body.messages.every((m: any) => m.org_phone === w.p1.org_phone)).toBe(true);
    });

    it("never shows another organization's messages of the same chat id", async () => {
      const a = await getJson(url(w.chat), auth(w.tA));
      const b = await getJson(url(w.chat), auth(w.tB));
      expect(b.body.count).toBe(2);
      const idsA = new Set(a.body.messages.map((m: any) => m.message_id));
      expect(b.body.messages.some((m: any) => idsA.has(m.message_id))).toBe(false);
      expect(b.body.messages.every((m: any) => m.org_id === w.orgB.id)).toBe(true);
    });

    it('pages with offset and limit; from/to are 1-based positions, count what was returned', async () => {
      const all = (await getJson(url(w.chat), auth(w.tA))).body.messages.map((m: any) => m.message_id);
      const page = await getJson(url(w.chat, '?offset=2&limit=3'), auth(w.tA));
      expect(page.body).toMatchObject({ from: 3, to: 5, count: 3 });
      expect(page.body.messages.map((m: any) => m.message_id)).toEqual(all.slice(2, 5));
      const past = await getJson(url(w.chat, '?offset=50'), auth(w.tA));
      expect(past.body).toMatchObject({ from: 50, to: 50, count: 0, messages: [] });
      const max = await getJson(url(w.chat, '?limit=2000'), auth(w.tA));
      expect(max.status).toBe(200);
    });

    it('puts the rate-limit headers on every authenticated answer', async () => {
      const res = await getJson(url(w.chat), auth(w.tA));
      expect(Number(res.headers.get('x-ratelimit-limit'))).toBe(100);
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(100);
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
      expect(reset).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 2);
      const denied = await getJson(url(w.chat, '?limit=9999'), auth(w.tA));
      expect(denied.status).toBe(422);
      expect(denied.headers.get('x-ratelimit-limit')).toBe('100');
    });
  });

  describe('observability', () => {
    it("continues the caller's trace through the gateway and NATS into the chats service", async () => {
      const traceId = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
      const res = await getJson(url(w.chat), auth(w.tA, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` }));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-service-trace-id')).toBe(traceId);
      await new Promise((r) => setTimeout(r, 300));
      const chatsLine = stack.chats.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'rpc' && l.trace_id === traceId);
      expect(chatsLine).toMatchObject({ subject: 'chats.v1.messages.list', status: 200, service: 'chats' });
      const gatewayLine = stack.gateway.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.trace_id === traceId);
      expect(gatewayLine).toMatchObject({ status: 200, org_id: w.orgA.id });
    });

    it('writes JSON logs without any bearer token in them', () => {
      const all = [...stack.gateway.lines, ...stack.chats.lines];
      expect(all.length).toBeGreaterThan(10);
      for (const line of all) expect(() => JSON.parse(line)).not.toThrow();
      const text = all.join('\n');
      for (const key of ['tA', 'tA1', 'tRevoked', 'tB', 'tFree', 'tLapsed']) expect(text).not.toContain(w[key]);
    });
  });

  describe('refuses', () => {
    const expectEnvelope = (body: any, code: string, status: number) => {
      expect(body).toMatchObject({ code, status });
      expect(typeof body.message).toBe('string');
      expect(JSON.stringify(body)).not.toMatch(/\bat .+:\d+:\d+/); // no stack trace
    };

    it.each([
      ['no Authorization header', undefined],
      ['an unknown token', 'mapi_not-a-real-token'],
      ['a Basic credential', 'Basic abc'],
    ])('%s with 401 UNAUTHORIZED_ERROR', async (_name, header) => {
      const res = await getJson(
        url(w.chat),
        header === undefined ? {} : { Authorization: header.startsWith('Basic') ? header : `Bearer ${header}` },
      );
      expect(res.status).toBe(401);
      expectEnvelope(res.body, 'UNAUTHORIZED_ERROR', 401);
    });

    it.each(['tRevoked', 'tFree', 'tLapsed'])('token %s (revoked, or no active paid plan) with 401', async (key) => {
      const res = await getJson(url(w.chat), auth(w[key]));
      expect(res.status).toBe(401);
      expectEnvelope(res.body, 'UNAUTHORIZED_ERROR', 401);
    });

    it('an x-phone outside the token scope, of another organization, unknown or deleted, with the same 401', async () => {
      const cases = [
        [w.tA1, w.p2.phone_id],
        [w.tA, w.q1.phone_id],
        [w.tA, w.q1.org_phone.replace('@c.us', '')],
        [w.tA, 'phone-unknownunknown1'],
        [w.tA, w.deleted.phone_id],
      ];
      for (const [token, phone] of cases) {
        const res = await getJson(url(w.chat), auth(token, { 'x-phone': phone }));
        expect(res.status).toBe(401);
        expectEnvelope(res.body, 'UNAUTHORIZED_ERROR', 401);
        expect(res.body.message).toBe(`Phone ${phone} is not accessible with this token`);
      }
    });

    it('a malformed x-phone with 422 naming the header', async () => {
      const res = await getJson(url(w.chat), auth(w.tA, { 'x-phone': '+44 7700' }));
      expect(res.status).toBe(422);
      expectEnvelope(res.body, 'VALIDATION_ERROR', 422);
      expect(res.body.fields['x-phone']).toEqual({ message: expect.any(String), value: '+44 7700' });
    });

    it.each([
      ['limit=2001', 'limit', 2001, /less than or equal to 2000/],
      ['limit=abc', 'limit', 'abc', /number/],
      ['limit=0', 'limit', 0, /at least 1/],
      ['limit=1.5', 'limit', 1.5, /whole number/],
      ['offset=-1', 'offset', -1, /at least 0/],
      ['offset=', 'offset', '', /number/],
    ])('%s with 422 whose fields.%s holds message and value', async (qs, field, value, text) => {
      const res = await getJson(url(w.chat, `?${qs}`), auth(w.tA));
      expect(res.status).toBe(422);
      expectEnvelope(res.body, 'VALIDATION_ERROR', 422);
      expect(res.body.fields[field].value).toEqual(value);
      expect(res.body.fields[field].message).toMatch(text);
    });

    it('a chat id that is neither a number nor a group id with 422', async () => {
      const res = await getJson(url('not-a-chat'), auth(w.tA));
      expect(res.status).toBe(422);
      expect(res.body.fields.chat_id).toEqual({ message: expect.stringMatching(/chat_id/), value: 'not-a-chat' });
    });

    it('an unknown route with 404 in the envelope', async () => {
      const res = await getJson(`${stack.baseUrl}/v1/no/such/route`, auth(w.tA));
      expect(res.status).toBe(404);
      expectEnvelope(res.body, 'NOT_FOUND_ERROR', 404);
    });
  });
});
