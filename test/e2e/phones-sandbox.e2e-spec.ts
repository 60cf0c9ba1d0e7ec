import { MessageSchema, PhoneSchema } from '@mapi/contracts';
import { createOrg, createToken, randomDigits } from '@mapi/testing';
import { client, expect422, until } from './support/http';
import { startStack, type Stack } from './support/stack';

/**
 * A phone's life on the sandbox network, end to end: create, QR, scan, inbound messages into the
 * chats store through JetStream, acks, groups, resync, disconnection and deletion — with the
 * gateway, chats and phones running as processes.
 */
describe('phones and the sandbox network', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const phoneState = () => api.get('/phones', { 'x-phone': w.phoneId });
  const messages = (chat: string) => api.get(`/chats/${encodeURIComponent(chat)}/messages`, { 'x-phone': w.phoneId });

  beforeAll(async () => {
    stack = await startStack({ SESSION_SCAN_MS: '200', PHONE_LEASE_TTL_MS: '3000' }, { services: ['phones'] });
    const org = await createOrg(stack.prisma);
    w.org = org;
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    const orgB = await createOrg(stack.prisma);
    other = client(stack.baseUrl, (await createToken(stack.prisma, orgB.id)).token);
    w.number = randomDigits();
    w.contact = randomDigits();
  }, 120_000);

  afterAll(() => stack?.stop());

  it('creates a phone that shows a QR to scan', async () => {
    const created = await api.post('/phones/create', { phone_name: 'Support' });
    expect(created.status).toBe(201);
    expect(PhoneSchema.safeParse(created.body).success).toBe(true);
    expect(created.body).toMatchObject({ phone_name: 'Support', org_phone: null, is_ready: false, org_id: w.org.id });
    w.phoneId = created.body.phone_id;
    const shown = await until(phoneState, (r) => r.body?.wa_state === 'QR', 10_000, 'QR state');
    expect(shown.body.qr_code).toMatch(/^sandbox-qr:/);
    const qr = await api.get('/phones/qr', { 'x-phone': w.phoneId });
    expect(qr.status).toBe(200);
    expect(qr.body).toEqual({ phone_id: w.phoneId, wa_state: 'QR', qr_code: shown.body.qr_code });
  });

  it('offers pairing by code while the phone waits to be paired', async () => {
    const code = await api.post('/phones/pairing-code', { number: w.number }, { 'x-phone': w.phoneId });
    expect(code.status).toBe(200);
    expect(code.body).toEqual({ phone_id: w.phoneId, pairing_code: expect.stringMatching(/^[0-9A-F]{4}-[0-9A-F]{4}$/) });
    expect((await api.post('/phones/pairing-code', { number: '+1' }, { 'x-phone': w.phoneId })).status).toBe(422);
  });

  it('connects when the QR is scanned; then has no QR', async () => {
    const scan = await api.post('/sandbox/phones/scan', { number: w.number }, { 'x-phone': w.phoneId });
    expect(scan.status).toBe(200);
    const phone = await until(phoneState, (r) => r.body?.wa_state === 'CONNECTED', 10_000, 'connected');
    expect(phone.body).toMatchObject({ org_phone: `${w.number}@c.us`, is_ready: true, qr_code: null });
    expect(phone.body.first_connected_at).not.toBeNull();
    const qr = await api.get('/phones/qr', { 'x-phone': w.phoneId });
    expect(qr.status).toBe(400);
    expect(qr.body).toMatchObject({ code: 'ERROR', status: 400 });
    const again = await api.post('/sandbox/phones/scan', { number: w.number }, { 'x-phone': w.phoneId });
    expect(again.status).toBe(400);
    const code = await api.post('/phones/pairing-code', { number: w.number }, { 'x-phone': w.phoneId });
    expect(code.status).toBe(400);
    expect(code.body).toMatchObject({ code: 'ERROR', message: expect.stringMatching(/not waiting to be paired/) });
  });

  it('stores an inbound text message, readable through GET messages in the spec shape', async () => {
    const sent = await api.post('/sandbox/messages', { chat_id: w.contact, body: 'Hello, is the shop open?' }, { 'x-phone': w.phoneId });
    expect(sent.status).toBe(200);
    const page = await until(
      () => messages(w.contact),
      (r) => r.body?.count === 1,
      10_000,
      'message stored',
    );
    w.firstInbound = sent.body;
    const m = page.body.messages[0];
    expect(MessageSchema.safeParse(m).success).toBe(true);
    expect(m).toMatchObject({
      message_id: sent.body.message_id,
      unique_id: sent.body.unique_id,
      chat_id: `${w.contact}@c.us`,
      from_me: false,
      sender_phone: `${w.contact}@c.us`,
      org_phone: `${w.number}@c.us`,
      body: 'Hello, is the shop open?',
      fts: 'hello is the shop open',
      message_type: 'chat',
    });
  });

  it('stores image messages with their media object', async () => {
    const media = {
      dimensions: { ar: 1.5, height: 400, width: 600 },
      filename: 'menu.jpg',
      mimetype: 'image/jpeg',
      path: 'https://files.example/menu.jpg',
      size: 2048,
      thumbnail: 'https://files.example/menu-thumb.jpg',
    };
    await api.post('/sandbox/messages', { chat_id: w.contact, type: 'image', body: null, media }, { 'x-phone': w.phoneId });
    const page = await until(
      () => messages(w.contact),
      (r) => r.body?.count === 2,
      10_000,
      'image stored',
    );
    expect(page.body.messages[0]).toMatchObject({ message_type: 'image', body: null, media, has_media: true });
  });

  it("stores a customer's reply quoting a message of the chat (quoted_unique_id); another chat's message or none is a 422", async () => {
    const customer = randomDigits();
    const x = { 'x-phone': w.phoneId };
    const asked = await api.post('/sandbox/messages', { chat_id: customer, from_me: true, body: 'Which size?' }, x);
    const replied = await api.post(
      '/sandbox/messages',
      { chat_id: customer, body: 'Medium, please', quoted_unique_id: asked.body.unique_id },
      x,
    );
    expect(replied.status).toBe(200);
    const page = await until(
      () => messages(customer),
      (r) => r.body?.count === 2,
      10_000,
      'the reply stored',
    );
    const reply = page.body.messages.find((m: any) => m.unique_id === replied.body.unique_id);
    expect(reply).toMatchObject({ body: 'Medium, please', from_me: false, quoted_message_id: asked.body.unique_id });
    expect(page.body.messages.find((m: any) => m.unique_id === asked.body.unique_id).quoted_message_id).toBeNull();
    for (const quoted_unique_id of [w.firstInbound.unique_id, 'NO_SUCH_MESSAGE'])
      expect422(
        await api.post('/sandbox/messages', { chat_id: customer, body: 'x', quoted_unique_id }, x),
        'body.quoted_unique_id',
        /no message with this unique_id in this chat/,
      );
    expect((await messages(customer)).body.count).toBe(2);
  });

  it('advances the acks of a message the phone sent, only upwards', async () => {
    const sent = await api.post(
      '/sandbox/messages',
      { chat_id: w.contact, from_me: true, body: 'Yes, until 6pm' },
      { 'x-phone': w.phoneId },
    );
    w.sentUid = sent.body.unique_id;
    await until(
      () => messages(w.contact),
      (r) => r.body?.messages?.[0]?.unique_id === w.sentUid,
      10_000,
      'sent stored',
    );
    for (const ack of [2, 3])
      expect((await api.post('/sandbox/messages/ack', { unique_id: w.sentUid, ack }, { 'x-phone': w.phoneId })).status).toBe(200);
    const page = await until(
      () => messages(w.contact),
      (r) => r.body?.messages?.[0]?.ack === '3',
      10_000,
      'ack 3',
    );
    expect(page.body.messages[0]).toMatchObject({
      from_me: true,
      sender_phone: `${w.number}@c.us`,
      delivery_info: { delivered_count: 1, read_count: 1, pending: [] },
    });
    const back = await api.post('/sandbox/messages/ack', { unique_id: w.sentUid, ack: 2 }, { 'x-phone': w.phoneId });
    expect(back.status).toBe(422);
    expect(back.body.fields['body.ack']).toBeDefined();
    const inbound = await api.post(
      '/sandbox/messages/ack',
      { unique_id: page.body.messages[1].unique_id, ack: 2 },
      { 'x-phone': w.phoneId },
    );
    expect(inbound.status).toBe(422);
  });

  it('creates groups with participants and admins, and stores group messages', async () => {
    const [a, b] = [randomDigits(), randomDigits()];
    const group = await api.post('/sandbox/groups', { subject: 'Team', participants: [a, b], admins: [a] }, { 'x-phone': w.phoneId });
    expect(group.status).toBe(200);
    expect(group.body.participants).toEqual([
      { id: `${w.number}@c.us`, admin: true },
      { id: `${a}@c.us`, admin: true },
      { id: `${b}@c.us`, admin: false },
    ]);
    w.group = group.body.chat_id;
    await api.post('/sandbox/messages', { chat_id: w.group, from: b, body: 'hi team' }, { 'x-phone': w.phoneId });
    const page = await until(
      () => messages(w.group),
      (r) => r.body?.count === 1,
      10_000,
      'group message',
    );
    expect(page.body.messages[0]).toMatchObject({ sender_phone: `${b}@c.us`, author: `${b}@c.us`, chat_id: w.group });
    const stored = await until(
      () => stack.prisma.groupParticipant.findMany({ where: { phone_id: w.phoneId, chat_id: w.group }, orderBy: { contact_id: 'asc' } }),
      (rows) => rows.length === 3,
      10_000,
      'participants stored',
    );
    expect(stored.find((p) => p.contact_id === `${a}@c.us`)?.is_admin).toBe(true);
    const noSender = await api.post('/sandbox/messages', { chat_id: w.group, body: 'who?' }, { 'x-phone': w.phoneId });
    expect(noSender.status).toBe(422);
  });

  it('resyncs without duplicates and reports progress on the phone (spec 4.6)', async () => {
    const before = (await messages(w.contact)).body.count;
    const res = await api.post('/phones/resync', undefined, { 'x-phone': w.phoneId });
    expect(res.status).toBe(204);
    const phone = await until(phoneState, (r) => r.body?.sync_status === 'idle' && r.body?.sync_progress === 100, 15_000, 'resync done');
    expect(phone.body.last_synced_at).not.toBeNull();
    await new Promise((r) => setTimeout(r, 500));
    expect((await messages(w.contact)).body.count).toBe(before);
  });

  it('holds messages while the phone is disconnected and delivers them when it reconnects; resync needs a connected phone', async () => {
    await api.post('/sandbox/phones/state', { state: 'DISCONNECTED' }, { 'x-phone': w.phoneId });
    await until(phoneState, (r) => r.body?.wa_state === 'DISCONNECTED', 10_000, 'disconnected');
    const resync = await api.post('/phones/resync', undefined, { 'x-phone': w.phoneId });
    expect(resync.status).toBe(400);
    expect(resync.body).toMatchObject({ code: 'ERROR', status: 400, message: expect.stringMatching(/disconnected/) });
    const before = (await messages(w.contact)).body.count;
    await api.post('/sandbox/messages', { chat_id: w.contact, body: 'are you there?' }, { 'x-phone': w.phoneId });
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await messages(w.contact)).body.count).toBe(before);
    await api.post('/sandbox/phones/state', { state: 'UNREACHABLE' }, { 'x-phone': w.phoneId });
    await until(phoneState, (r) => r.body?.wa_state === 'UNREACHABLE', 10_000, 'unreachable');
    expect((await api.post('/phones/resync', undefined, { 'x-phone': w.phoneId })).status).toBe(400);
    await api.post('/sandbox/phones/state', { state: 'CONNECTED' }, { 'x-phone': w.phoneId });
    await until(
      () => messages(w.contact),
      (r) => r.body?.count === before + 1,
      10_000,
      'held message delivered',
    );
  });

  it('publishes the domain events it wrote (outbox → JetStream)', async () => {
    // Published = at or before the relay's cursor.
    const published = async () => {
      const rows = await stack.prisma.outboxEvent.findMany({ where: { org_id: w.org.id } });
      const cursor = await stack.prisma.outboxCursor.findUniqueOrThrow({ where: { name: 'relay' } });
      return { rows, all: rows.length > 0 && rows.every((e) => e.seq <= cursor.last_seq) };
    };
    const { rows } = await until(published, (r) => r.all, 10_000, 'events published');
    const types = new Set(rows.map((r) => r.type));
    for (const t of [
      'org.phone.qr',
      'org.phone.connected',
      'org.phone.disconnected',
      'chat.created',
      'message.created',
      'message.ack.updated',
    ])
      expect(types).toContain(t);
    const created = rows.filter((r) => r.type === 'message.created');
    expect(created.every((r) => MessageSchema.safeParse(r.payload).success)).toBe(true);
  });

  it('validates input and keeps other organizations out', async () => {
    expect((await api.post('/phones/resync')).status).toBe(422);
    expect((await api.post('/sandbox/phones/scan', { number: '+1 555' }, { 'x-phone': w.phoneId })).status).toBe(422);
    expect((await api.patch('/phones/update', {}, { 'x-phone': w.phoneId })).status).toBe(422);
    const renamed = await api.patch('/phones/update', { phone_name: 'Front desk', labels: ['vip'] }, { 'x-phone': w.phoneId });
    expect(renamed.body).toMatchObject({ phone_name: 'Front desk', labels: ['vip'] });
    expect((await other.get('/phones', { 'x-phone': w.phoneId })).status).toBe(401);
    expect((await other.post('/phones/resync', undefined, { 'x-phone': w.phoneId })).status).toBe(401);
    expect((await other.post('/sandbox/messages', { chat_id: w.contact, body: 'x' }, { 'x-phone': w.phoneId })).status).toBe(401);
    expect((await other.get('/phones/all')).body).toEqual([]);
    expect((await api.get('/phones/all')).body.map((p: any) => p.phone_id)).toEqual([w.phoneId]);
  });

  it('resets a phone back to QR, and deletes it', async () => {
    expect((await api.post('/phones/reset', undefined, { 'x-phone': w.phoneId })).status).toBe(204);
    await until(phoneState, (r) => r.body?.wa_state === 'QR' && Boolean(r.body?.qr_code), 10_000, 'back to QR');
    expect((await api.delete('/phones/delete', { 'x-phone': w.phoneId })).status).toBe(204);
    expect((await phoneState()).status).toBe(401);
  });
});
