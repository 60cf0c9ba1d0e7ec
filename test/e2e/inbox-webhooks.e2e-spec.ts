import { ChatWithPropertiesSchema } from '@mapi/contracts';
import { randomDigits } from '@mapi/testing';
import { Webhook } from 'standardwebhooks';
import { client, until } from './support/http';
import { startStack, type Stack } from './support/stack';
import { twoOrganizations } from './support/two-organizations';
const { startReceiver } = require('../../bench/webhooks/receiver.js');

/**
 * The two chat events of the team inbox delivered to a real webhook receiver (issue 17): PATCH
 * /chats/labels and PATCH /chats/{chat_id} (inbox → chats.v1.chat.set-properties, outbox, relay,
 * JetStream, webhooks dispatcher) reach the organization's subscriptions signed per Standard Webhooks,
 * in the hosted envelope with previous_attributes; another organization's subscription sees none.
 */
jest.setTimeout(60_000);

describe('inbox chat events: webhook delivery', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let receiver: any;
  const w: Record<string, any> = {};
  const [alice, bob] = [randomDigits(), randomDigits()];
  const [chatA, chatB] = [`${alice}@c.us`, `${bob}@c.us`];
  const delivered = (path: string, type: string) =>
    receiver.requests.filter((r: any) => r.path === path && JSON.parse(r.body).event_type === type);

  beforeAll(async () => {
    receiver = await startReceiver();
    stack = await startStack(
      { WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32', WEBHOOK_POLL_INTERVAL_MS: '50' },
      { services: ['phones', 'inbox', 'webhooks-dispatcher'] },
    );
    Object.assign(
      w,
      await twoOrganizations(stack, [
        ['p1', chatA],
        ['p2', chatB],
        ['q', chatA],
      ]),
    );
    ({ api, other } = w);
    const subs = await api.post('/webhooks', {
      hookUrl: `${receiver.url}/ours`,
      integrationName: ['chat.label.updated', 'chat.custom_properties.updated'],
    });
    expect(subs.status).toBe(201);
    [w.labelSub, w.propsSub] = subs.body;
    expect(
      (
        await other.post('/webhooks', {
          hookUrl: `${receiver.url}/theirs`,
          integrationName: ['chat.label.updated', 'chat.custom_properties.updated'],
        })
      ).status,
    ).toBe(201);
    w.tier = (
      await api.post('/custom-properties/create', { property_name: 'Tier', property_value_type: 'dropdown', property_value: 'Gold,Silver' })
    ).body.property_id;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('chat.label.updated: one signed delivery per chat whose labels changed, with the chat and previous label_ids', async () => {
    expect((await api.patch('/chats/labels', { labels: 'vip', chat_ids: [chatA, chatB] })).status).toBe(204);
    const vip = (await api.get('/labels')).body.labels[0].label_id;
    const got = await until(
      async () => delivered('/ours', 'chat.label.updated'),
      (l) => l.length >= 2,
      20_000,
      'chat.label.updated delivered',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(delivered('/ours', 'chat.label.updated')).toHaveLength(2);
    const bodies = got.map((req: any) => {
      const verified = new Webhook(w.labelSub.secret).verify(req.body, req.headers) as any;
      expect(verified.event_id).toBe(req.headers['webhook-id']);
      expect(() => new Webhook(w.propsSub.secret).verify(req.body, req.headers)).toThrow();
      return JSON.parse(req.body);
    });
    expect(bodies.map((b: any) => [b.data.chat_id, b.phone_id]).sort()).toEqual(
      [
        [chatA, w.p1.phone_id],
        [chatB, w.p2.phone_id],
      ].sort(),
    );
    for (const b of bodies) {
      expect(b).toMatchObject({ event: 'chat.label.updated', org_id: w.org.id, previous_attributes: { label_ids: {} } });
      expect(b.data.label_ids).toEqual({ [vip]: true });
      expect(ChatWithPropertiesSchema.safeParse(b.data).success).toBe(true);
    }
  });

  it('chat.custom_properties.updated: delivered with the values by property id and the previous ones; a change of nothing delivers nothing', async () => {
    expect((await api.patch(`/chats/${alice}`, { custom_properties: { tier: 'gold' } })).status).toBe(200);
    const [req] = await until(
      async () => delivered('/ours', 'chat.custom_properties.updated'),
      (l) => l.length >= 1,
      20_000,
      'chat.custom_properties.updated delivered',
    );
    const body = new Webhook(w.propsSub.secret).verify(req.body, req.headers) as any;
    expect(body).toMatchObject({
      event: 'chat.custom_properties.updated',
      org_id: w.org.id,
      phone_id: w.p1.phone_id,
      previous_attributes: { custom_properties: {} },
    });
    expect(body.data).toMatchObject({ chat_id: chatA, custom_properties: { [w.tier]: 'Gold' } });
    expect((await api.patch(`/chats/${alice}`, { custom_properties: { tier: 'Silver' } })).status).toBe(200);
    const both = await until(
      async () => delivered('/ours', 'chat.custom_properties.updated'),
      (l) => l.length >= 2,
      20_000,
      'the second change delivered',
    );
    expect(JSON.parse(both[1].body).previous_attributes).toEqual({ custom_properties: { [w.tier]: 'Gold' } });
    expect((await api.patch(`/chats/${alice}`, { custom_properties: { tier: 'SILVER' } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(delivered('/ours', 'chat.custom_properties.updated')).toHaveLength(2);
  });

  it("another organization's subscription receives none of it, and its own change reaches only it", async () => {
    expect(receiver.requests.filter((r: any) => r.path === '/theirs')).toHaveLength(0);
    expect((await other.patch('/chats/labels', { labels: 'theirs', chat_ids: [chatA] })).status).toBe(204);
    const [theirs] = await until(
      async () => delivered('/theirs', 'chat.label.updated'),
      (l) => l.length >= 1,
      20_000,
      'their event delivered',
    );
    expect(JSON.parse(theirs.body)).toMatchObject({ org_id: w.otherOrg.id, phone_id: w.q.phone_id });
    expect(delivered('/ours', 'chat.label.updated')).toHaveLength(2);
  });
});
