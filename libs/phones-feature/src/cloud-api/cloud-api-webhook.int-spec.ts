import { randomBytes } from 'node:crypto';
import { IngestEventSchema, ServiceError, type IngestEvent } from '@mapi/contracts';
import { callbackPayload, createOrg, newWamid, statusValue, textMessageValue, useTestDatabase } from '@mapi/testing';
import pino from 'pino';
import { CallbackLimit } from './callback-limit';
import { CloudApiStore } from './cloud-api-store';
import { CloudApiWebhook } from './cloud-api-webhook';
import { CustomerWindows } from './customer-windows';
import { GraphClient } from './graph-client';
import { ReceivedMediaQueue } from './received-media';
import { SentMessages } from './sent-messages';
import { signBody } from './signature';

const t = useTestDatabase('cloud_api_webhook');
const logger = pino({ level: 'silent' });

describe('CloudApiWebhook (handshake, signature, mapping to ingest events)', () => {
  const published: IngestEvent[] = [];
  const setUp = async (extras: { windows?: CustomerWindows; limit?: CallbackLimit } = {}) => {
    const org = await createOrg(t.prisma);
    const store = new CloudApiStore(t.prisma, randomBytes(32));
    const number = {
      phone_number_id: `${Date.now()}${Math.floor(Math.random() * 1e4)}`,
      display_phone_number: '15550100000',
      waba_id: '2000',
    };
    const phone = await store.create(org.id, undefined, {
      phone_number_id: number.phone_number_id,
      waba_id: '2000',
      access_token: 'token-good-123',
      app_secret: 'secret-abc-1',
      verify_token: 'verify-me-1',
    });
    const sent = new SentMessages(t.prisma);
    const media = new ReceivedMediaQueue(t.prisma, null, new GraphClient('http://127.0.0.1:9', 500), logger);
    const webhook = new CloudApiWebhook(store, sent, media, { publish: async (e) => void published.push(e) }, logger, extras);
    const post = (payload: unknown, secret = 'secret-abc-1') => {
      const raw = Buffer.from(JSON.stringify(payload));
      return webhook.receive(phone.phone_id, raw.toString('base64'), signBody(raw, secret));
    };
    return { org, phone, number, webhook, sent, post };
  };
  const status = (e: unknown) => (e as ServiceError).status;

  beforeEach(() => void published.splice(0));

  it('answers the handshake with the challenge for the verify token, 403 for another token or mode, 404 for no Cloud API phone', async () => {
    const { phone, webhook } = await setUp();
    const q = { 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me-1', 'hub.challenge': '1158201444' };
    expect(await webhook.verify(phone.phone_id, q)).toBe('1158201444');
    expect(status(await webhook.verify(phone.phone_id, { ...q, 'hub.verify_token': 'nope' }).catch((e) => e))).toBe(403);
    expect(status(await webhook.verify(phone.phone_id, { ...q, 'hub.mode': 'unsubscribe' }).catch((e) => e))).toBe(403);
    expect(status(await webhook.verify('phone-unknown', q).catch((e) => e))).toBe(404);
  });

  it('publishes a signed text message as the phone’s received message; unsigned is 401, mis-signed 403, nothing published', async () => {
    const { org, phone, number, webhook, post } = await setUp();
    const payload = callbackPayload(number, textMessageValue('16505551234', 'Where is my order?', { name: 'Kerry' }));
    expect(await post(payload)).toBe(1);
    expect(published).toHaveLength(1);
    expect(IngestEventSchema.safeParse(published[0]).success).toBe(true);
    expect(published[0]).toMatchObject({
      org_id: org.id,
      phone_id: phone.phone_id,
      kind: 'messages-upsert',
      type: 'notify',
      messages: [
        expect.objectContaining({ chat_id: '16505551234@c.us', body: 'Where is my order?', sender_name: 'Kerry', from_me: false }),
      ],
    });
    // Meta's retry of the same callback: the same event, so JetStream's id (a hash of it) and the store's key count it once
    await post(payload);
    expect(published[1]).toEqual(published[0]);

    published.splice(0);
    const raw = Buffer.from(JSON.stringify(payload));
    expect(status(await webhook.receive(phone.phone_id, raw.toString('base64'), undefined).catch((e) => e))).toBe(401);
    expect(status(await post(payload, 'another-secret').catch((e) => e))).toBe(403);
    expect(status(await webhook.receive('phone-unknown', raw.toString('base64'), signBody(raw, 'secret-abc-1')).catch((e) => e))).toBe(404);
    expect(published).toEqual([]);
  });

  it("maps statuses of the phone's sends to receipts of its message, in any order, keeps a failure's errors, and ignores others' wamids", async () => {
    const { phone, number, sent, post } = await setUp();
    const wamid = newWamid();
    const job = '8a3f1c2e-0000-4000-8000-000000000001';
    await sent.record(phone.phone_id, {
      sent_message_id: job,
      chat_id: '16505551234@c.us',
      unique_id: '3EB0MINE',
      wamid,
      sent_at: new Date(),
    });
    await post(callbackPayload(number, statusValue(wamid, '16505551234', 'read')));
    await post(callbackPayload(number, statusValue(wamid, '16505551234', 'delivered')));
    await post(callbackPayload(number, statusValue(newWamid(), '16505551234', 'delivered')));
    expect(published.map((e) => e.kind === 'receipt' && [e.unique_id, e.from_me, e.ack])).toEqual([
      ['3EB0MINE', true, 3],
      ['3EB0MINE', true, 2],
    ]);
    const errors = [
      { code: 131047, title: 'Re-engagement message', details: 'Message failed to send because more than 24 hours have passed' },
    ];
    await post(callbackPayload(number, statusValue(wamid, '16505551234', 'failed', errors)));
    expect(published.at(-1)).toMatchObject({ kind: 'receipt', ack: -1 });
    const row = await t.prisma.cloudApiSentMessage.findFirstOrThrow({ where: { phone_id: phone.phone_id, wamid } });
    expect(row.status).toBe('failed');
    expect(row.error).toEqual([expect.objectContaining({ code: 131047, details: errors[0].details })]);
  });

  it('holds a received image for its file (not published yet, a retry held once) and maps a reaction to the phone’s own message', async () => {
    const { phone, number, sent, post } = await setUp();
    const wamid = newWamid();
    await sent.record(phone.phone_id, {
      sent_message_id: '8a3f1c2e-0000-4000-8000-000000000002',
      chat_id: '16505551234@c.us',
      unique_id: '3EB0OWN',
      wamid,
      sent_at: new Date(),
    });
    const image = {
      from: '16505551234',
      id: 'wamid.img1',
      timestamp: '1700000000',
      type: 'image',
      image: { id: 'm-77', mime_type: 'image/jpeg' },
    };
    const reaction = {
      from: '16505551234',
      id: 'wamid.re1',
      timestamp: '1700000001',
      type: 'reaction',
      reaction: { message_id: wamid, emoji: '❤️' },
    };
    await post(callbackPayload(number, { messages: [image, reaction] }));
    await post(callbackPayload(number, { messages: [image] }));
    expect(published.map((e) => e.kind)).toEqual(['reaction']);
    expect(published[0]).toMatchObject({
      unique_id: '3EB0OWN',
      from_me: true,
      reaction: { reaction: '❤️', sender_phone: '16505551234@c.us' },
    });
    expect(await t.prisma.cloudApiMedia.findMany({ where: { phone_id: phone.phone_id } })).toEqual([
      expect.objectContaining({
        wamid: 'wamid.img1',
        media_id: 'm-77',
        mime_type: 'image/jpeg',
        done_at: null,
        message: expect.objectContaining({ unique_id: 'wamid.img1', message_type: 'image', chat_id: '16505551234@c.us' }),
      }),
    ]);
  });

  it('answers 404 for a deleted phone: its address stops working', async () => {
    const { org, phone, post } = await setUp();
    await t.prisma.phone.update({ where: { phone_id: phone.phone_id, org_id: org.id }, data: { deleted_at: new Date() } });
    expect(status(await post({ object: 'whatsapp_business_account', entry: [] }).catch((e) => e))).toBe(404);
  });

  it("moves each customer's window with their messages, not with statuses or the phone's own", async () => {
    const windows = new CustomerWindows(t.prisma);
    const { phone, number, post } = await setUp({ windows });
    const at = new Date(Date.now() - 3 * 3600_000);
    const wamid = newWamid();
    await post(callbackPayload(number, textMessageValue('16505550001', 'hi', { id: wamid, at })));
    await post(callbackPayload(number, statusValue(newWamid(), '16505550002', 'delivered')));
    expect(await windows.of(phone.phone_id, '16505550001@c.us')).toEqual({
      state: 'open',
      last_inbound_at: new Date(Math.floor(at.getTime() / 1000) * 1000),
      last_wamid: wamid,
    });
    expect(await windows.of(phone.phone_id, '16505550002')).toMatchObject({ state: 'unknown', last_wamid: null });
  });

  it('takes at most the per-phone rate: over it a 429 before any work (Meta delivers again), another phone unaffected', async () => {
    let now = 1_000_000;
    const limit = new CallbackLimit(3, () => now);
    const a = await setUp({ limit });
    const b = await setUp({ limit });
    const payload = () => callbackPayload(a.number, textMessageValue('16505550003', 'burst'));
    for (let i = 0; i < 3; i++) await a.post(payload());
    const over = await a.post(payload()).catch((e) => e);
    expect(over).toMatchObject({
      status: 429,
      code: 'RATE_LIMIT_ERROR',
      message: expect.stringMatching(/3 per second.*delivers them again/),
    });
    // refused before the signature is even checked: a forged one is 429 too while the bucket is empty
    expect(status(await a.webhook.receive(a.phone.phone_id, 'e30=', undefined).catch((e) => e))).toBe(429);
    expect(await b.post(callbackPayload(b.number, textMessageValue('16505550004', 'other phone')))).toBe(1);
    now += 400; // a second's worth refills continuously: 1.2 tokens
    expect(await a.post(payload())).toBe(1);
    expect(status(await a.post(payload()).catch((e) => e))).toBe(429);
    expect(published.filter((e) => e.phone_id === a.phone.phone_id)).toHaveLength(4);
  });
});
