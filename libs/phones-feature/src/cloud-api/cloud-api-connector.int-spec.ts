import { randomBytes, randomUUID } from 'node:crypto';
import { sendUniqueId, type IngestMessage } from '@mapi/contracts';
import { createOrg, startFakeGraphApi, useTestDatabase, type FakeGraphApi } from '@mapi/testing';
import pino from 'pino';
import type { ConnectionUpdate, MessageChange } from '../connector/phone-connector';
import { CloudApiConnector } from './cloud-api-connector';
import { CloudApiStore } from './cloud-api-store';
import { CustomerWindows } from './customer-windows';
import { GraphClient } from './graph-client';
import { CloudApiUnsupported, SendRefused, SendThrottled } from './graph-errors';
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
    const windows = new CustomerWindows(t.prisma);
    const connector = new CloudApiConnector(phone.phone_id, {
      store,
      sent,
      graph: new GraphClient(graph.graphUrl, 2_000),
      media: new ReceivedMediaQueue(t.prisma, null, new GraphClient(graph.graphUrl, 2_000), logger),
      windows,
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
    return { org, phone, phoneNumberId, connector, states, upserts, changes, store, windows };
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

  it("maps Meta's errors: the 24-hour window refuses for good, rate limits throttle, transient ones are retried, nothing is recorded as sent", async () => {
    const { phone, connector } = await setUp();
    await connector.connect();
    graph.failNext({ status: 400, code: 131047, message: 'Re-engagement message' });
    await expect(connector.sendMessage('15557654321@c.us', { text: 'late' }, randomUUID())).rejects.toThrow(SendRefused);
    for (const [code, message] of [
      [130429, 'Rate limit hit'],
      [131056, '(Business Account, Consumer Account) pair rate limit hit'],
      [80007, 'Rate limit issues'],
    ] as const) {
      graph.failNext({ status: 400, code, message });
      const throttled = connector.sendMessage('15557654321@c.us', { text: 'busy' }, randomUUID());
      await expect(throttled).rejects.toThrow(SendThrottled);
      await expect(throttled).rejects.toThrow(`Meta's rate limit: ${message} (Meta error ${code})`);
    }
    graph.failNext({ status: 500, code: 131000, message: 'Something went wrong' });
    const retried = connector.sendMessage('15557654321@c.us', { text: 'busy' }, randomUUID());
    await expect(retried).rejects.toThrow(/Something went wrong.*131000.*retried/);
    await expect(retried).rejects.not.toThrow(SendRefused);
    await expect(retried).rejects.not.toThrow(SendThrottled);
    expect(await t.prisma.cloudApiSentMessage.count({ where: { phone_id: phone.phone_id } })).toBe(0);
  });

  it("refuses a reaction before Meta once the chat's 24-hour window is known closed (a reaction is a free-form message)", async () => {
    const { phone, connector, windows, changes, phoneNumberId } = await setUp();
    await connector.connect();
    const key = { chat_id: '15557654321@c.us', unique_id: 'wamid.in2', from_me: false, sender_phone: '15557654321@c.us' };
    await windows.received(phone.phone_id, [
      { chat_id: key.chat_id, unique_id: 'wamid.in2', timestamp: new Date(Date.now() - 25 * 3600_000).toISOString(), from_me: false },
    ]);
    const before = sendsTo(phoneNumberId).length;
    for (const emoji of ['👍', '']) {
      const refused = connector.reactToMessage(key, emoji);
      await expect(refused).rejects.toThrow(SendRefused);
      await expect(refused).rejects.toThrow(/24-hour customer-service window of this chat is closed/);
    }
    expect(sendsTo(phoneNumberId)).toHaveLength(before);
    expect(changes).toEqual([]);
    // the customer writes again: the reaction goes
    await windows.received(phone.phone_id, [
      { chat_id: key.chat_id, unique_id: 'wamid.in3', timestamp: new Date().toISOString(), from_me: false },
    ]);
    await connector.reactToMessage(key, '👍');
    expect(sendsTo(phoneNumberId).at(-1)?.body).toMatchObject({ type: 'reaction', reaction: { message_id: 'wamid.in2', emoji: '👍' } });
  });

  it('refuses free text before Meta once the 24-hour window is known closed; a template goes; the customer writing opens it', async () => {
    const { phone, connector, windows, phoneNumberId } = await setUp();
    await connector.connect();
    const hours = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();
    const wrote = (id: string, at: string) => ({ chat_id: '15557654321@c.us', unique_id: id, timestamp: at, from_me: false });
    // a new phone, a customer it never heard from: unknown, so it goes (Meta has the last word)
    expect(await connector.freeFormRefusal('15557654321@c.us')).toBeNull();
    await windows.received(phone.phone_id, [wrote('wamid.old', hours(25))]);
    const reason = await connector.freeFormRefusal('15557654321');
    expect(reason).toMatch(
      /24-hour customer-service window of this chat is closed \(the customer last wrote at .*\): .*only an approved template/,
    );
    const before = sendsTo(phoneNumberId).length;
    await expect(connector.sendMessage('15557654321@c.us', { text: 'late' }, randomUUID())).rejects.toThrow(SendRefused);
    expect(sendsTo(phoneNumberId)).toHaveLength(before);
    await connector.sendMessage('15557654321@c.us', { template: { name: 'order_update', language: 'en_US' } }, randomUUID());
    expect(sendsTo(phoneNumberId)).toHaveLength(before + 1);
    // the customer writes (a late retry of an older message never moves the window back)
    await windows.received(phone.phone_id, [wrote('wamid.new', hours(1)), wrote('wamid.older', hours(2))]);
    await windows.received(phone.phone_id, [wrote('wamid.retry', hours(30))]);
    expect(await windows.of(phone.phone_id, '15557654321@c.us')).toMatchObject({ state: 'open', last_wamid: 'wamid.new' });
    expect(await connector.freeFormRefusal('15557654321@c.us')).toBeNull();
    // never written to a phone whose webhook is ours for over 24 h: closed too
    await t.prisma.cloudApiPhone.update({ where: { phone_id: phone.phone_id }, data: { created_at: new Date(hours(48)) } });
    expect(await windows.of(phone.phone_id, '15550000001')).toMatchObject({ state: 'closed', last_inbound_at: null });
    expect(await connector.freeFormRefusal('15550000001')).toMatch(/has not written to this number/);
  });

  it("marks the customer's latest message read at Meta; a chat with no message from them sends nothing", async () => {
    const { phone, connector, windows, phoneNumberId } = await setUp();
    await connector.connect();
    await windows.received(phone.phone_id, [
      { chat_id: '15557654321@c.us', unique_id: 'wamid.first', timestamp: new Date(Date.now() - 5000).toISOString(), from_me: false },
      { chat_id: '15557654321@c.us', unique_id: 'wamid.last', timestamp: new Date().toISOString(), from_me: false },
    ]);
    await connector.markChatRead('15557654321@c.us');
    expect(graph.reads.filter((r) => r.phone_number_id === phoneNumberId)).toEqual([
      { phone_number_id: phoneNumberId, message_id: 'wamid.last' },
    ]);
    await connector.markChatRead('15550000002@c.us');
    expect(graph.reads.filter((r) => r.phone_number_id === phoneNumberId)).toHaveLength(1);
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
