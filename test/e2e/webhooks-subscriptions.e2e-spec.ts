import { CreatedWebhookSubscriptionSchema, WebhookSubscriptionSchema } from '@mapi/contracts';
import { createOrg, createToken } from '@mapi/testing';
import { client } from './support/http';
import { startStack, type Stack } from './support/stack';

/** Subscriptions end to end (spec 4.7 and 2.3 plus the wider API's CRUD): gateway → NATS → webhooks-dispatcher. */
describe('webhook subscriptions', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let orgId: string;
  const URL_A = 'https://hooks.example.com/a';
  const URL_B = 'https://hooks.example.com/b?x=1';
  const w: Record<string, any> = {};

  beforeAll(async () => {
    // API role only: this file's dispatcher must not deliver other test files' events (same run database).
    stack = await startStack({ WEBHOOK_ROLES: 'api' }, { services: ['webhooks-dispatcher'] });
    const org = await createOrg(stack.prisma);
    orgId = org.id;
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    const orgB = await createOrg(stack.prisma);
    other = client(stack.baseUrl, (await createToken(stack.prisma, orgB.id)).token);
    w.otherSub = (await other.post('/webhooks', { hookUrl: URL_A, integrationName: 'message.created' })).body[0];
  }, 120_000);

  afterAll(() => stack?.stop());

  it('creates one subscription per event name, 201, each with its own secret shown once', async () => {
    const res = await api.post('/webhooks', {
      hookUrl: URL_A,
      integrationName: ['message.created', 'message.ack.updated', 'chat.created'],
      name: 'CRM',
    });
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(3);
    for (const s of res.body) {
      expect(CreatedWebhookSubscriptionSchema.strict().safeParse(s).success).toBe(true);
      expect(s.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(s.secret.slice(6), 'base64')).toHaveLength(32);
    }
    expect(res.body.map((s: any) => s.integration_name)).toEqual(['message.created', 'message.ack.updated', 'chat.created']);
    expect(new Set(res.body.map((s: any) => s.secret)).size).toBe(3);
    expect(new Set(res.body.map((s: any) => s.integration_id)).size).toBe(1);
    expect(res.body[0]).toMatchObject({
      org_id: orgId,
      hook_url: URL_A,
      is_subscribed: true,
      integration_type: 'webhook',
      type: 'webhook',
      integration_metadata: { id: res.body[0].integration_id, name: 'CRM' },
    });
    expect(res.body[0].subscribed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    w.a = res.body;
  });

  it('accepts a single event name as a string, and type / integrationType', async () => {
    const res = await api.post('/webhooks', {
      hookUrl: URL_B,
      integrationName: 'org.phone.connected',
      type: 'custom',
      integrationType: 'zapier',
    });
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      integration_name: 'org.phone.connected',
      type: 'custom',
      integration_type: 'zapier',
      integration_metadata: { name: URL_B },
    });
    w.b = res.body[0];
  });

  it.each([
    ['an unknown event name', { hookUrl: URL_A, integrationName: 'message.exploded' }, 'body.integrationName'],
    ['an unknown name in an array', { hookUrl: URL_A, integrationName: ['message.created', 'nope'] }, 'body.integrationName'],
    ['an empty array', { hookUrl: URL_A, integrationName: [] }, 'body.integrationName'],
    ['a non-http URL', { hookUrl: 'ftp://hooks.example.com/x', integrationName: 'message.created' }, 'body.hookUrl'],
    ['a relative URL', { hookUrl: '/hooks', integrationName: 'message.created' }, 'body.hookUrl'],
    ['a missing hookUrl', { integrationName: 'message.created' }, 'body.hookUrl'],
  ])('refuses %s with 422', async (_label, body, field) => {
    const res = await api.post('/webhooks', body);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
    expect(res.body.fields[field]).toBeDefined();
  });

  it("lists the organization's subscriptions in the spec 2.3 shape, never another organization's", async () => {
    const res = await api.get('/webhooks');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(4);
    for (const s of res.body) {
      expect(WebhookSubscriptionSchema.strict().safeParse(s).success).toBe(true);
      expect(s).not.toHaveProperty('secret');
    }
    expect(res.body.map((s: any) => s.id)).not.toContain(w.otherSub.id);
    const theirs = await other.get('/webhooks');
    expect(theirs.body.map((s: any) => s.id)).toEqual([w.otherSub.id]);
  });

  it('filters by each of integration_name, is_subscribed, integration_id, hook_url, type, and by several at once', async () => {
    const ids = async (q: string) => {
      const res = await api.get(`/webhooks?${q}`);
      expect(res.status).toBe(200);
      return res.body.map((s: any) => s.id).sort();
    };
    const [created, ack, chat] = w.a.map((s: any) => s.id);
    expect(await ids('integration_name=message.created')).toEqual([created]);
    expect(await ids(`integration_id=${w.a[0].integration_id}`)).toEqual([created, ack, chat].sort());
    expect(await ids(`hook_url=${encodeURIComponent(URL_B)}`)).toEqual([w.b.id]);
    expect(await ids('type=custom')).toEqual([w.b.id]);
    expect(await ids('is_subscribed=true')).toHaveLength(4);
    expect(await ids('is_subscribed=false')).toEqual([]);
    expect(await ids(`integration_name=chat.created&hook_url=${encodeURIComponent(URL_A)}&is_subscribed=true`)).toEqual([chat]);
    expect(await ids(`integration_name=chat.created&hook_url=${encodeURIComponent(URL_B)}`)).toEqual([]);
    expect(await ids('integration_name=note.created')).toEqual([]);
  });

  it.each([
    ['is_subscribed=yes', 'is_subscribed', 'yes'],
    ['is_subscribed=1', 'is_subscribed', 1],
    ['integration_id=not-a-uuid', 'integration_id', 'not-a-uuid'],
    ['integration_name=message.exploded', 'integration_name', 'message.exploded'],
    ['hook_url=not%20a%20url', 'hook_url', 'not a url'],
    ['type=', 'type', ''],
  ])('answers 422 for the filter %s', async (query, field, value) => {
    const res = await api.get(`/webhooks?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.fields[field]).toMatchObject({ value });
  });

  it("gets one subscription; unknown, malformed or another organization's ids are not found", async () => {
    const res = await api.get(`/webhooks/${w.b.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(Object.fromEntries(Object.entries(w.b).filter(([k]) => k !== 'secret')));
    expect((await api.get(`/webhooks/${w.otherSub.id}`)).status).toBe(404);
    expect((await api.get('/webhooks/00000000-0000-4000-8000-000000000000')).body).toMatchObject({ code: 'NOT_FOUND_ERROR', status: 404 });
    const bad = await api.get('/webhooks/abc');
    expect(bad.status).toBe(422);
    expect(bad.body.fields.id).toBeDefined();
  });

  it('patches isSubscribed, the URL and the event name; is_subscribed=false then finds it', async () => {
    const paused = await api.patch(`/webhooks/${w.b.id}`, { isSubscribed: false });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ id: w.b.id, is_subscribed: false });
    expect((await api.get('/webhooks?is_subscribed=false')).body.map((s: any) => s.id)).toEqual([w.b.id]);
    const moved = await api.patch(`/webhooks/${w.b.id}`, {
      hookUrl: 'http://hooks.example.org/new',
      integrationName: 'org.phone.qr',
      isSubscribed: true,
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      hook_url: 'http://hooks.example.org/new',
      integration_name: 'org.phone.qr',
      is_subscribed: true,
      integration_metadata: { name: 'http://hooks.example.org/new' },
    });
    expect(Date.parse(moved.body.subscribed_at)).toBeGreaterThanOrEqual(Date.parse(w.b.subscribed_at));
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['a bad URL', { hookUrl: 'javascript:alert(1)' }, 'body.hookUrl'],
    ['an unknown event name', { integrationName: 'x.y' }, 'body.integrationName'],
    ['a non-boolean isSubscribed', { isSubscribed: 'no' }, 'body.isSubscribed'],
  ])('refuses a PATCH with %s (422)', async (_label, body, field) => {
    const res = await api.patch(`/webhooks/${w.b.id}`, body);
    expect(res.status).toBe(422);
    expect(res.body.fields[field]).toBeDefined();
  });

  it("cannot patch, rotate, read the log of, redeliver to, replay to or delete another organization's subscription", async () => {
    const id = w.otherSub.id;
    expect((await api.patch(`/webhooks/${id}`, { isSubscribed: false })).status).toBe(404);
    expect((await api.post(`/webhooks/${id}/secret/rotate`)).status).toBe(404);
    expect((await api.get(`/webhooks/${id}/deliveries`)).status).toBe(404);
    expect((await api.post(`/webhooks/${id}/redeliver`, { eventId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await api.post(`/webhooks/${id}/replay`, { from: '2020-01-01T00:00:00Z', to: '2030-01-01T00:00:00Z' })).status).toBe(404);
    expect((await api.delete(`/webhooks/${id}`)).status).toBe(404);
    const still = await other.get(`/webhooks/${id}`);
    expect(still.status).toBe(200);
    expect(still.body.is_subscribed).toBe(true);
  });

  it('rotates the signing secret', async () => {
    const before = await stack.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: w.a[0].id } });
    const res = await api.post(`/webhooks/${w.a[0].id}/secret/rotate`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(w.a[0].id);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(before.secret);
    const after = await stack.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: w.a[0].id } });
    expect(after.secret).toBe(res.body.secret);
  });

  it('validates replay ranges and redelivery ids', async () => {
    const id = w.a[0].id;
    const backwards = await api.post(`/webhooks/${id}/replay`, { from: '2030-01-01T00:00:00Z', to: '2020-01-01T00:00:00Z' });
    expect(backwards.status).toBe(422);
    expect(backwards.body.fields['body.to']).toBeDefined();
    expect((await api.post(`/webhooks/${id}/replay`, { from: 'yesterday', to: '2030-01-01T00:00:00Z' })).status).toBe(422);
    expect((await api.post(`/webhooks/${id}/redeliver`, { eventId: 'x' })).status).toBe(422);
    expect((await api.post(`/webhooks/${id}/redeliver`, { eventId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    const empty = await api.post(`/webhooks/${id}/replay`, { from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' });
    expect(empty.status).toBe(202);
    expect(empty.body).toEqual({ subscription_id: id, scheduled: 0 });
    const log = await api.get(`/webhooks/${id}/deliveries?limit=5000`);
    expect(log.status).toBe(422);
  });

  it('deletes with 204; the subscription is gone', async () => {
    const res = await api.delete(`/webhooks/${w.a[2].id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await api.get(`/webhooks/${w.a[2].id}`)).status).toBe(404);
    expect((await api.delete(`/webhooks/${w.a[2].id}`)).status).toBe(404);
    expect((await api.get('/webhooks')).body).toHaveLength(3);
  });

  it('needs a valid token', async () => {
    const res = await client(stack.baseUrl, 'mapi_invalid').get('/webhooks');
    expect(res.status).toBe(401);
  });
});
