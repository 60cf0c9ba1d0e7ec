import { MessageSchema } from '@mapi/contracts';
import { createOrg, createToken, randomDigits } from '@mapi/testing';
import { Webhook } from 'standardwebhooks';
import { client, until } from './support/http';
import { startStack, type Stack } from './support/stack';
const { startReceiver } = require('../../bench/webhooks/receiver.js');

/**
 * Delivery end to end: a sandbox phone's events (written to the outbox by phones/chats, relayed to
 * JetStream) reach a local receiver signed per Standard Webhooks; the log, redelivery, replay,
 * retries and 410 are visible through the API.
 */
jest.setTimeout(60_000);

describe('webhook delivery', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let receiver: any;
  const w: Record<string, any> = {};
  const at = (path: string) => receiver.requests.filter((r: any) => r.path === path);

  beforeAll(async () => {
    receiver = await startReceiver();
    stack = await startStack(
      {
        WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
        WEBHOOK_RETRY_SCHEDULE_MS: '0,300,300',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        SESSION_SCAN_MS: '200',
        PHONE_LEASE_TTL_MS: '3000',
      },
      { services: ['phones', 'webhooks-dispatcher'] },
    );
    const org = await createOrg(stack.prisma);
    w.org = org;
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('delivers the phone and message events of the organization, signed, to its subscriptions only', async () => {
    const subs = await api.post('/webhooks', {
      hookUrl: `${receiver.url}/ok`,
      integrationName: ['org.phone.connected', 'message.created'],
    });
    expect(subs.status).toBe(201);
    w.connectedSub = subs.body[0];
    w.messageSub = subs.body[1];
    await other.post('/webhooks', { hookUrl: `${receiver.url}/other`, integrationName: ['org.phone.connected', 'message.created'] });

    const phone = await api.post('/phones/create', { phone_name: 'Hooks' });
    w.phoneId = phone.body.phone_id;
    await until(
      () => api.get('/phones', { 'x-phone': w.phoneId }),
      (r) => r.body?.wa_state === 'QR',
      10_000,
      'QR',
    );
    await api.post('/sandbox/phones/scan', { number: randomDigits() }, { 'x-phone': w.phoneId });
    await until(
      async () => at('/ok').length,
      (n) => n >= 1,
      15_000,
      'connected event delivered',
    );
    const sent = await api.post('/sandbox/messages', { chat_id: randomDigits(), body: 'Hello hooks' }, { 'x-phone': w.phoneId });
    expect(sent.status).toBe(200);
    await until(
      async () => at('/ok').filter((r: any) => JSON.parse(r.body).event_type === 'message.created').length,
      (n) => n >= 1,
      15_000,
      'message event',
    );

    const connected = at('/ok').find((r: any) => JSON.parse(r.body).event_type === 'org.phone.connected');
    const message = at('/ok').find((r: any) => JSON.parse(r.body).event_type === 'message.created');
    for (const [req, sub] of [
      [connected, w.connectedSub],
      [message, w.messageSub],
    ]) {
      const verified = new Webhook(sub.secret).verify(req.body, req.headers) as any;
      expect(verified.event_id).toBe(req.headers['webhook-id']);
      expect(verified.org_id).toBe(w.org.id);
      expect(req.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
      expect(() =>
        new Webhook(w.connectedSub === sub ? w.messageSub.secret : w.connectedSub.secret).verify(req.body, req.headers),
      ).toThrow();
    }
    const payload = JSON.parse(message.body);
    // The hosted service's envelope (event, data, org_id, previous_attributes, timestamp), our fields beside it.
    expect(payload).toMatchObject({ event: 'message.created', org_id: w.org.id, previous_attributes: null, timestamp: payload.created_at });
    expect(payload).toMatchObject({ event_type: 'message.created', org_id: w.org.id, phone_id: w.phoneId });
    // An update event says what it replaced: the connection moved the phone from QR to CONNECTED.
    expect(JSON.parse(connected.body).previous_attributes).toMatchObject({ wa_state: 'QR', is_ready: false });
    expect(MessageSchema.safeParse(payload.data).success).toBe(true);
    expect(payload.data).toMatchObject({ body: 'Hello hooks', message_id: sent.body.message_id });
    w.messageEvent = payload;
    expect(at('/other')).toHaveLength(0);
  });

  it('shows each attempt in the delivery log', async () => {
    const log = await until(
      () => api.get(`/webhooks/${w.messageSub.id}/deliveries`),
      (r) => r.body?.count >= 1,
      5_000,
      'log',
    );
    expect(log.body.attempts[0]).toMatchObject({
      event_id: w.messageEvent.event_id,
      event_type: 'message.created',
      attempt: 1,
      success: true,
      status_code: 200,
      error: null,
    });
    expect(log.body.attempts[0].latency_ms).toBeGreaterThanOrEqual(0);
    expect((await other.get(`/webhooks/${w.messageSub.id}/deliveries`)).status).toBe(404);
  });

  it('redelivers one event on request, with the same event id', async () => {
    const before = at('/ok').length;
    const res = await api.post(`/webhooks/${w.messageSub.id}/redeliver`, { eventId: w.messageEvent.event_id });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ subscription_id: w.messageSub.id, event_id: w.messageEvent.event_id, scheduled: true });
    await until(
      async () => at('/ok').length,
      (n) => n > before,
      10_000,
      'redelivery',
    );
    const again = at('/ok').at(-1);
    expect(again.headers['webhook-id']).toBe(w.messageEvent.event_id);
    expect(JSON.parse(again.body)).toEqual(w.messageEvent);
    // Not an event of that subscription's name: not found.
    const wrong = await api.post(`/webhooks/${w.connectedSub.id}/redeliver`, { eventId: w.messageEvent.event_id });
    expect(wrong.status).toBe(404);
  });

  it('replays the events of a time range', async () => {
    const before = at('/ok').length;
    const res = await api.post(`/webhooks/${w.messageSub.id}/replay`, {
      from: new Date(Date.now() - 600_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(res.status).toBe(202);
    expect(res.body.scheduled).toBe(1);
    await until(
      async () => at('/ok').length,
      (n) => n > before,
      10_000,
      'replay',
    );
  });

  it('retries failures on the schedule until a 2xx', async () => {
    receiver.script('/flaky', (_req: unknown, n: number) => ({ status: n < 3 ? 500 : 200, body: n < 3 ? 'boom' : 'fine' }));
    const sub = (await api.post('/webhooks', { hookUrl: `${receiver.url}/flaky`, integrationName: 'message.created' })).body[0];
    await api.post('/sandbox/messages', { chat_id: randomDigits(), body: 'retry me' }, { 'x-phone': w.phoneId });
    const log = await until(
      () => api.get(`/webhooks/${sub.id}/deliveries`),
      (r) => r.body?.count >= 3,
      15_000,
      '3 attempts',
    );
    expect(log.body.attempts.map((a: any) => [a.attempt, a.status_code, a.success])).toEqual([
      [3, 200, true],
      [2, 500, false],
      [1, 500, false],
    ]);
    expect(log.body.attempts[1]).toMatchObject({ response_body: 'boom', error: 'HTTP 500' });
    const ids = new Set(at('/flaky').map((r: any) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
  });

  it('disables a subscription at once on 410 and emits an event about it', async () => {
    receiver.script('/gone', () => ({ status: 410 }));
    const sub = (await api.post('/webhooks', { hookUrl: `${receiver.url}/gone`, integrationName: 'message.created' })).body[0];
    await api.post('/sandbox/messages', { chat_id: randomDigits(), body: 'anyone there?' }, { 'x-phone': w.phoneId });
    const got = await until(
      () => api.get(`/webhooks/${sub.id}`),
      (r) => r.body?.is_subscribed === false,
      15_000,
      'disabled',
    );
    expect(got.body.is_subscribed).toBe(false);
    const events = await stack.prisma.outboxEvent.findMany({ where: { org_id: w.org.id, type: 'webhook.subscription.disabled' } });
    expect(events.map((e) => (e.payload as any).id)).toContain(sub.id);
    expect(events.find((e) => (e.payload as any).id === sub.id)?.payload).toMatchObject({ reason: 'gone' });
    // Later events are not sent to it.
    const count = at('/gone').length;
    await api.post('/sandbox/messages', { chat_id: randomDigits(), body: 'still?' }, { 'x-phone': w.phoneId });
    await until(
      async () => at('/ok').filter((r: any) => JSON.parse(r.body).data?.body === 'still?').length,
      (n) => n === 1,
      10_000,
      'delivered elsewhere',
    );
    expect(at('/gone')).toHaveLength(count);
  });
});
