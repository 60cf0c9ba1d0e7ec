import { randomUUID } from 'node:crypto';
import { EventSinkSchema } from '@mapi/contracts';
import { createOrg, createToken } from '@mapi/testing';
import { client, expect404, expect422 } from './support/http';
import { startStack, type Stack } from './support/stack';

const KEY = Buffer.alloc(32, 9).toString('base64');

/**
 * /v1/event-sinks (issue 36, decision 0087) end to end: gateway → NATS → webhooks-dispatcher (API role
 * only: no delivery here) → webhook_subscriptions rows with a transport. Credentials sealed at rest and
 * never answered; another organization's sink is a 404; webhooks and sinks do not see each other's rows.
 */
describe('event sinks: management', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let orgId: string;
  const w: Record<string, any> = {};

  beforeAll(async () => {
    stack = await startStack({ WEBHOOK_ROLES: 'api', BAILEYS_AUTH_KEY: KEY }, { services: ['webhooks-dispatcher', 'members'] });
    const org = await createOrg(stack.prisma);
    orgId = org.id;
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    const orgB = await createOrg(stack.prisma);
    other = client(stack.baseUrl, (await createToken(stack.prisma, orgB.id)).token);
    w.theirs = (await other.post('/event-sinks', { transport: 'nats', url: 'nats://bus.example.com', events: 'chat.created' })).body[0];
  }, 120_000);

  afterAll(() => stack?.stop());

  /** An event kept for redelivery (a webhook_events row, as the intake stores it; this stack has no intake role). */
  const keptEvent = async (org: string, type: string) => {
    const id = randomUUID();
    await stack.prisma.webhookEvent.create({
      data: { id, org_id: org, type, body: JSON.stringify({ event: type, event_id: id }), created_at: new Date() },
    });
    return id;
  };

  it('creates one sink per event name with the transport defaults, credentials sealed and never answered', async () => {
    const res = await api.post('/event-sinks', {
      transport: 'amqp',
      url: 'amqp://rabbit.example.com:5672/prod',
      events: ['message.created', 'chat.created'],
      config: { exchange: 'crm-events' },
      credentials: { username: 'crm', password: 's3cret-pa55' },
      name: 'CRM bus',
    });
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(2);
    for (const s of res.body) expect(EventSinkSchema.strict().safeParse(s).success).toBe(true);
    expect(res.body[0]).toMatchObject({
      org_id: orgId,
      transport: 'amqp',
      url: 'amqp://rabbit.example.com:5672/prod',
      event: 'message.created',
      config: { exchange: 'crm-events' },
      has_credentials: true,
      is_subscribed: true,
      name: 'CRM bus',
    });
    expect(JSON.stringify(res.body)).not.toContain('s3cret-pa55');
    const stored = await stack.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: res.body[0].id } });
    expect(stored.credentials).not.toBeNull();
    expect(Buffer.from(stored.credentials as Uint8Array).toString('latin1')).not.toContain('s3cret-pa55');
    w.amqp = res.body;

    const mqtt = await api.post('/event-sinks', { transport: 'mqtt', url: 'mqtts://broker.example.com', events: 'message.created' });
    expect(mqtt.status).toBe(201);
    expect(mqtt.body[0]).toMatchObject({ config: { topicPrefix: 'mapi', protocolVersion: 4 }, has_credentials: false });
    const nats = await api.post('/event-sinks', {
      transport: 'nats',
      url: 'nats://bus.example.com:4222',
      events: 'message.created',
      config: { jetstream: true },
    });
    expect(nats.body[0]).toMatchObject({ config: { subjectPrefix: 'mapi', jetstream: true } });
    w.mqtt = mqtt.body[0];
  });

  it.each([
    ['an unknown transport', { transport: 'sqs', url: 'nats://x.example.com', events: 'chat.created' }, 'body.transport'],
    ['a scheme of another transport', { transport: 'amqp', url: 'mqtt://x.example.com', events: 'chat.created' }, 'body.url'],
    ['credentials in the URL', { transport: 'amqp', url: 'amqp://u:p@x.example.com', events: 'chat.created' }, 'body.url'],
    ['an http URL', { transport: 'nats', url: 'https://x.example.com', events: 'chat.created' }, 'body.url'],
    ['an unknown event name', { transport: 'nats', url: 'nats://x.example.com', events: 'chat.exploded' }, 'body.events'],
    [
      'a wildcard topic prefix',
      { transport: 'mqtt', url: 'mqtt://x.example.com', events: 'chat.created', config: { topicPrefix: 'a/#' } },
      'body.config.topicPrefix',
    ],
    [
      'an unknown config field',
      { transport: 'nats', url: 'nats://x.example.com', events: 'chat.created', config: { exchange: 'x' } },
      'body.config',
    ],
    [
      'an unknown credentials field',
      { transport: 'nats', url: 'nats://x.example.com', events: 'chat.created', credentials: { pwd: 'x' } },
      'body.credentials',
    ],
  ])('refuses %s with 422 in the envelope', async (_label, body, field) => {
    const res = await api.post('/event-sinks', body);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.fields).some((k) => k.startsWith(field))).toBe(true);
  });

  it("lists, gets and filters the organization's sinks only; webhooks and sinks do not see each other", async () => {
    const list = await api.get('/event-sinks');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(4);
    expect(list.body.map((s: any) => s.id)).not.toContain(w.theirs.id);
    expect((await api.get('/event-sinks?transport=mqtt')).body.map((s: any) => s.id)).toEqual([w.mqtt.id]);
    expect((await api.get(`/event-sinks/${w.amqp[0].id}`)).body).toEqual(w.amqp[0]);
    expect((await api.get('/webhooks')).body).toEqual([]);
    expect422(await api.get('/event-sinks?transport=sqs'), 'transport');
    const hook = (await api.post('/webhooks', { hookUrl: 'https://hooks.example.com/x', integrationName: 'chat.created' })).body[0];
    expect404(await api.get(`/event-sinks/${hook.id}`));
    expect404(await api.get(`/webhooks/${w.amqp[0].id}`));
    expect404(await api.delete(`/webhooks/${w.amqp[0].id}`));
  });

  it("answers 404 for another organization's sink on every route, and changes nothing of it", async () => {
    const id = w.theirs.id;
    expect404(await api.get(`/event-sinks/${id}`));
    expect404(await api.patch(`/event-sinks/${id}`, { isSubscribed: false }));
    expect404(await api.get(`/event-sinks/${id}/deliveries`));
    expect404(await api.post(`/event-sinks/${id}/replay`, { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }));
    // an event of the other organization, kept for its sink: redelivering it from this one is a 404 too
    const theirEvent = await keptEvent(w.theirs.org_id, 'chat.created');
    expect404(await api.post(`/event-sinks/${id}/redeliver`, { eventId: theirEvent }));
    expect404(await api.post(`/event-sinks/${w.amqp[1].id}/redeliver`, { eventId: theirEvent }));
    expect404(await api.delete(`/event-sinks/${id}`));
    expect((await other.get(`/event-sinks/${id}`)).body).toMatchObject({ is_subscribed: true });
  });

  it('changes a sink: config checked against its transport, credentials replaced or removed, paused', async () => {
    const id = w.amqp[0].id;
    expect422(await api.patch(`/event-sinks/${id}`, { config: { topicPrefix: 'x' } }), 'body.config');
    expect422(await api.patch(`/event-sinks/${id}`, { url: 'nats://x.example.com' }), 'body.url');
    expect422(await api.patch(`/event-sinks/${id}`, {}), 'body');
    const paused = await api.patch(`/event-sinks/${id}`, { isSubscribed: false, config: { exchange: 'other' }, credentials: null });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({
      is_subscribed: false,
      disabled_reason: 'paused',
      config: { exchange: 'other' },
      has_credentials: false,
    });
    const again = await api.patch(`/event-sinks/${id}`, { isSubscribed: true, credentials: { username: 'u', password: 'p' } });
    expect(again.body).toMatchObject({ is_subscribed: true, disabled_reason: null, has_credentials: true });
    const log = await api.get(`/event-sinks/${id}/deliveries`);
    expect(log.body).toEqual({ count: 0, attempts: [] });
    expect((await api.delete(`/event-sinks/${w.amqp[1].id}`)).status).toBe(204);
    expect404(await api.get(`/event-sinks/${w.amqp[1].id}`));
  });

  it('gives new credentials to every sink created together that has the same URL; one moved to another broker keeps its own', async () => {
    const created = await api.post('/event-sinks', {
      transport: 'nats',
      url: 'tls://bus.example.com:4222',
      events: ['message.created', 'chat.created', 'task.created'],
      credentials: { token: 'first-token' },
    });
    const [a, b, moved] = created.body.map((s: any) => s.id as string);
    const sealed = async () =>
      Object.fromEntries(
        (await stack.prisma.webhookSubscription.findMany({ where: { id: { in: [a, b, moved] } } })).map((r) => [
          r.id,
          r.credentials ? Buffer.from(r.credentials).toString('hex') : null,
        ]),
      );
    const first = await sealed();
    expect(new Set(Object.values(first)).size).toBe(1);
    expect((await api.patch(`/event-sinks/${moved}`, { url: 'tls://other-bus.example.com:4222' })).status).toBe(200);
    const changed = await api.patch(`/event-sinks/${a}`, { credentials: { token: 'second-token' } });
    expect(changed.body).toMatchObject({ has_credentials: true });
    const second = await sealed();
    expect(second[a]).not.toBe(first[a]);
    expect(second[b]).toBe(second[a]);
    expect(second[moved]).toBe(first[moved]);
    expect((await api.patch(`/event-sinks/${b}`, { credentials: null })).body).toMatchObject({ has_credentials: false });
    expect((await api.get(`/event-sinks/${a}`)).body).toMatchObject({ has_credentials: false });
    expect((await api.get(`/event-sinks/${moved}`)).body).toMatchObject({ has_credentials: true });
    for (const id of [a, b, moved]) expect((await api.delete(`/event-sinks/${id}`)).status).toBe(204);
  });

  it("redelivers one kept event of the sink's name (202, a delivery scheduled now); another name's, an unknown id or a webhook's id is a 404", async () => {
    const id = w.mqtt.id;
    const eventId = await keptEvent(orgId, 'message.created');
    const res = await api.post(`/event-sinks/${id}/redeliver`, { eventId });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ subscription_id: id, event_id: eventId, scheduled: true });
    const delivery = await stack.prisma.webhookDelivery.findFirstOrThrow({ where: { subscription_id: id, event_id: eventId } });
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0, endpoint: 'mqtts://broker.example.com' });
    expect422(await api.post(`/event-sinks/${id}/redeliver`, { eventId: 'x' }), 'body.eventId');
    const notFound = await api.post(`/event-sinks/${id}/redeliver`, { eventId: await keptEvent(orgId, 'chat.created') });
    expect404(notFound);
    expect(notFound.body.message).toMatch(/^Event not found for this sink/);
    expect404(await api.post(`/event-sinks/${id}/redeliver`, { eventId: randomUUID() }));
    const hook = (await api.post('/webhooks', { hookUrl: 'https://hooks.example.com/redeliver', integrationName: 'message.created' }))
      .body[0];
    expect404(await api.post(`/event-sinks/${hook.id}/redeliver`, { eventId }));
    expect404(await api.post(`/webhooks/${id}/redeliver`, { eventId }));
  });

  it('records creations, changes, redeliveries and deletions in the audit trail, without the credentials', async () => {
    const entries = (await api.get('/members/audit?limit=500')).body.entries.filter((e: any) => e.action.startsWith('event_sink.'));
    const actions = entries.map((e: any) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['event_sink.created', 'event_sink.updated', 'event_sink.redelivered', 'event_sink.deleted']),
    );
    expect(entries.find((e: any) => e.action === 'event_sink.redelivered').target).toBe(w.mqtt.id);
    expect(entries.some((e: any) => e.action === 'event_sink.deleted' && e.target === w.amqp[1].id)).toBe(true);
    expect(JSON.stringify(entries)).not.toContain('s3cret-pa55');
  });

  it('never writes the credentials to the logs', async () => {
    const lines = [...stack.gateway.lines, ...stack.apps['webhooks-dispatcher'].lines, ...stack.apps.members.lines].join('\n');
    expect(lines).not.toContain('s3cret-pa55');
  });

  it('answers 503 for credentials when the service has no key, and still takes a sink without them', async () => {
    const bare = await stack.startService('webhooks-dispatcher', { WEBHOOK_ROLES: 'api', BAILEYS_AUTH_KEY: '' });
    await stack.apps['webhooks-dispatcher'].stop();
    const res = await api.post('/event-sinks', {
      transport: 'nats',
      url: 'nats://x.example.com',
      events: 'chat.created',
      credentials: { token: 't' },
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE_ERROR' });
    expect((await api.post('/event-sinks', { transport: 'nats', url: 'nats://x.example.com', events: 'chat.created' })).status).toBe(201);
    await bare.stop();
  });
});
