import { writeEvents } from '@mapi/events';
import { createOrg, createToken, stubEvents } from '@mapi/testing';
import { Webhook } from 'standardwebhooks';
import { client, until } from './support/http';
import { startStack, type Stack } from './support/stack';
const { startReceiver } = require('../../bench/webhooks/receiver.js');

/**
 * Secret rotation through the API with an overlap window (WEBHOOK_SECRET_ROTATION_OVERLAP_MS, 4 s
 * here): deliveries made inside the window carry a signature for the new and for the old secret, so
 * a receiver holding either accepts them (verified with the standardwebhooks library); after the
 * window only the new secret verifies.
 */
jest.setTimeout(90_000);

const OVERLAP_MS = 4_000;

describe('webhook secret rotation overlap', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let receiver: any;
  let orgId: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    stack = await startStack(
      { WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32', WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_SECRET_ROTATION_OVERLAP_MS: String(OVERLAP_MS) },
      { services: ['webhooks-dispatcher'] },
    );
    orgId = (await createOrg(stack.prisma)).id;
    api = client(stack.baseUrl, (await createToken(stack.prisma, orgId)).token);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  /** Writes one event to the outbox (the stack's relay publishes it) and returns its delivery. */
  async function deliverOne(tag: string) {
    await stack.prisma.$transaction((tx) =>
      writeEvents(tx, stubEvents([{ type: 'message.created', org_id: orgId, phone_id: null, data: { tag } }])),
    );
    const match = (r: any) => JSON.parse(r.body).data?.tag === tag;
    await until(
      async () => receiver.requests.filter(match).length,
      (n) => n >= 1,
      15_000,
      `delivery ${tag}`,
    );
    return receiver.requests.find(match);
  }
  const verifies = (secret: string, req: any) => {
    try {
      new Webhook(secret).verify(req.body, req.headers);
      return true;
    } catch {
      return false;
    }
  };

  it('signs with both secrets during the window, then with the new one only', async () => {
    const created = await api.post('/webhooks', { hookUrl: `${receiver.url}/rotating`, integrationName: 'message.created' });
    expect(created.status).toBe(201);
    const sub = created.body[0];
    const oldSecret: string = sub.secret;

    const before = await deliverOne('before');
    expect(before.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifies(oldSecret, before)).toBe(true);

    const rotated = await api.post(`/webhooks/${sub.id}/secret/rotate`);
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.secret;
    expect(newSecret).not.toBe(oldSecret);
    const rotatedAt = Date.now();

    const during = await deliverOne('during');
    expect(Date.now() - rotatedAt).toBeLessThan(OVERLAP_MS);
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifies(newSecret, during)).toBe(true);
    expect(verifies(oldSecret, during)).toBe(true);

    await new Promise((r) => setTimeout(r, Math.max(0, rotatedAt + OVERLAP_MS + 500 - Date.now())));
    const after = await deliverOne('after');
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifies(newSecret, after)).toBe(true);
    expect(verifies(oldSecret, after)).toBe(false);

    // Another organization cannot rotate it.
    const other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
    expect((await other.post(`/webhooks/${sub.id}/secret/rotate`)).status).toBe(404);
  });
});
