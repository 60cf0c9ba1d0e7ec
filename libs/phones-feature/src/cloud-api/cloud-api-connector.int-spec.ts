import { randomBytes, randomUUID } from 'node:crypto';
import { sendUniqueId, type IngestMessage } from '@mapi/contracts';
import { createOrg, startFakeGraphApi, useTestDatabase, type FakeGraphApi } from '@mapi/testing';
import pino from 'pino';
import type { ConnectionUpdate, MessageChange } from '../connector/phone-connector';
import { CloudApiConnector } from './cloud-api-connector';
import { CloudApiStore } from './cloud-api-store';
import { GraphClient } from './graph-client';
import { CloudApiUnsupported, SendRefused } from './graph-errors';
import { ReceivedMediaQueue } from './received-media';
import { SentMessages } from './sent-messages';

const t = useTestDatabase('cloud_api_connector');
const logger = pino({ level: 'silent' });
const KEY = randomBytes(32);

describe('CloudApiConnector against a fake Graph API', () => {
  let graph: FakeGraphApi;
  beforeAll(async () => {
    graph = await startFakeGraphApi();
  });
  afterAll(() => graph.stop());

  const setUp = async (token = 'token-good-123') => {
    const org = await createOrg(t.prisma);
    const store = new CloudApiStore(t.prisma, KEY);
    const phoneNumberId = String(Date.now()) + String(Math.floor(Math.random() * 1000));
    graph.numbers.set(phoneNumberId, { token: 'token-good-123', display_phone_number: '+1 555-010-0000', verified_name: 'Acme' });
    const creds = {
      phone_number_id: phoneNumberId,
      waba_id: '2000',
      access_token: token,
      app_secret: 'secret-abc-1',
      verify_token: 'verify-me-1',
    };
    const phone = await store.create(org.id, 'Cloud', creds);
    const sent = new SentMessages(t.prisma);
    const connector = new CloudApiConnector(phone.phone_id, {
      store,
      sent,
      graph: new GraphClient(graph.graphUrl, 2_000),
      media: new ReceivedMediaQueue(t.prisma, null, new GraphClient(graph.graphUrl, 2_000), logger),
      logger,
      retryMs: 60_000,
      mediaPollMs: 60_000,
    });
    const states: ConnectionUpdate[] = [];
    const upserts: IngestMessage[] = [];
    const changes: MessageChange[] = [];
    connector.on('connection.update', async (u) => void states.push(u));
    connector.on('messages.upsert', async (u) => void upserts.push(...u.messages));
    connector.on('messages.update', async (c) => void changes.push(...c));
    return { org, phone, phoneNumberId, connector, states, upserts, changes, store };
  };
  const sendsTo = (phoneNumberId: string) => graph.requests.filter((r) => r.method === 'POST' && r.path === `/${phoneNumberId}/messages`);

  it('keeps the secrets sealed at rest and connects when the Graph API accepts the token, with the number it reports', async () => {
    const { phone, connector, states, phoneNumberId } = await setUp();
    const row = await t.prisma.cloudApiPhone.findUniqueOrThrow({ where: { phone_id: phone.phone_id } });
    for (const secret of ['token-good-123', 'secret-abc-1', 'verify-me-1'])
      for (const sealed of [row.access_token, row.app_secret, row.verify_token]) expect(Buffer.from(sealed).includes(secret)).toBe(false);
    expect(phone.connector).toBe('cloud_api');
    await connector.connect();
    expect(states).toEqual([{ state: 'CONNECTED', qr: null, number: '15550100000' }]);
    expect(await connector.isConnected()).toBe(true);
    expect(graph.requests.find((r) => r.path === `/${phoneNumberId}`)?.authorization).toBe('Bearer token-good-123');
  });

  it('is LOGGED_OUT when the Graph API refuses the token, and cannot send', async () => {
    const { connector, states } = await setUp('token-revoked-1');
    await connector.connect();
    expect(states).toEqual([{ state: 'LOGGED_OUT', qr: null }]);
    expect(await connector.isConnected()).toBe(false);
  });

  it('sends a text once per send id, reports it as the phone’s message (ack 0 until Meta says sent), and threads a reply', async () => {
    const { phone, connector, upserts, phoneNumberId } = await setUp();
    await connector.connect();
    const jobId = randomUUID();
    const first = await connector.sendMessage('15557654321@c.us', { text: 'Your order shipped' }, jobId);
    expect(first).toMatchObject({ unique_id: sendUniqueId(phone.phone_id, jobId), duplicate: false });
    const again = await connector.sendMessage('15557654321@c.us', { text: 'Your order shipped' }, jobId);
    expect(again).toMatchObject({ unique_id: first.unique_id, duplicate: true });
    expect(sendsTo(phoneNumberId)).toHaveLength(1);
    expect(sendsTo(phoneNumberId)[0].body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '15557654321',
      type: 'text',
      text: { body: 'Your order shipped', preview_url: true },
    });
    expect(upserts).toEqual([
      expect.objectContaining({ chat_id: '15557654321@c.us', unique_id: first.unique_id, from_me: true, ack: 0, sent_message_id: jobId }),
    ]);
    const row = await t.prisma.cloudApiSentMessage.findFirstOrThrow({ where: { phone_id: phone.phone_id, sent_message_id: jobId } });
    expect(row.wamid).toMatch(/^wamid\./);

    // replying to the phone's own message names Meta's id of it; to a customer's, that message's id as is
    await connector.sendMessage(
      '15557654321@c.us',
      { text: 'More news', reply_to: `true_15557654321@c.us_${first.unique_id}` },
      randomUUID(),
    );
    await connector.sendMessage('15557654321@c.us', { text: 'Thanks', reply_to: 'wamid.customer1' }, randomUUID());
    expect(sendsTo(phoneNumberId)[1].body).toMatchObject({ context: { message_id: row.wamid } });
    expect(sendsTo(phoneNumberId)[2].body).toMatchObject({ context: { message_id: 'wamid.customer1' } });
  });

  it('uploads a file given inline (base64) and sends it by its media id, with the caption', async () => {
    const { connector, upserts, phoneNumberId } = await setUp();
    await connector.connect();
    const filedata = Buffer.from('%PDF-1.4 invoice bytes').toString('base64');
    await connector.sendMessage(
      '15557654321@c.us',
      { text: 'Your invoice', media: { filename: 'invoice.pdf', mimetype: 'application/pdf', filedata } },
      randomUUID(),
    );
    const upload = graph.uploads.at(-1);
    expect(upload?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload?.raw.includes('%PDF-1.4 invoice bytes')).toBe(true);
    expect(upload?.raw.includes('filename="invoice.pdf"')).toBe(true);
    expect(sendsTo(phoneNumberId).at(-1)?.body).toMatchObject({
      type: 'document',
      document: { id: upload?.id, caption: 'Your invoice', filename: 'invoice.pdf' },
    });
    expect(upserts.at(-1)).toMatchObject({ message_type: 'document', body: 'Your invoice' });
  });

  it('reacts (and reports its own reaction, which Meta does not echo)', async () => {
    const { connector, changes, phoneNumberId } = await setUp();
    await connector.connect();
    await connector.reactToMessage(
      { chat_id: '15557654321@c.us', unique_id: 'wamid.in1', from_me: false, sender_phone: '15557654321@c.us' },
      '🎉',
    );
    expect(sendsTo(phoneNumberId).at(-1)?.body).toMatchObject({ type: 'reaction', reaction: { message_id: 'wamid.in1', emoji: '🎉' } });
    expect(changes).toEqual([
      expect.objectContaining({
        unique_id: 'wamid.in1',
        from_me: false,
        reaction: expect.objectContaining({ sender_phone: '15550100000@c.us', reaction: '🎉' }),
      }),
    ]);
  });

  it("maps Meta's errors: the 24-hour window refuses for good, throttling is retried, nothing is recorded as sent", async () => {
    const { phone, connector } = await setUp();
    await connector.connect();
    graph.failNext({ status: 400, code: 131047, message: 'Re-engagement message' });
    await expect(connector.sendMessage('15557654321@c.us', { text: 'late' }, randomUUID())).rejects.toThrow(SendRefused);
    graph.failNext({ status: 400, code: 130429, message: 'Rate limit hit' });
    const retried = connector.sendMessage('15557654321@c.us', { text: 'busy' }, randomUUID());
    await expect(retried).rejects.toThrow(/Rate limit hit.*130429.*retried/);
    await expect(retried).rejects.not.toThrow(SendRefused);
    expect(await t.prisma.cloudApiSentMessage.count({ where: { phone_id: phone.phone_id } })).toBe(0);
  });

  it('answers what the Cloud API cannot do with an error naming it; logout forgets the secrets', async () => {
    const { phone, connector } = await setUp();
    await connector.connect();
    await expect(connector.groupCreate()).rejects.toThrow(CloudApiUnsupported);
    await expect(connector.groupParticipantsUpdate()).rejects.toThrow(/cannot manage group participants/);
    await expect(connector.editMessage()).rejects.toThrow(/cannot edit messages/);
    await expect(connector.sendMessage('120363025246125486@g.us', { text: 'x' }, randomUUID())).rejects.toThrow(SendRefused);
    await connector.logout();
    expect(await t.prisma.cloudApiPhone.count({ where: { phone_id: phone.phone_id } })).toBe(0);
    expect(await connector.isConnected()).toBe(false);
  });
});
