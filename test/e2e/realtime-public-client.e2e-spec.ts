import { createServer } from 'node:net';
import { PeriskopeApi } from '@periskope/periskope-client';
import { MessageSchema } from '@mapi/contracts';
import { createOrg, createPhone, createToken, randomDigits } from '@mapi/testing';
import { io as connect, type Socket } from 'socket.io-client';
import { client, until } from './support/http';
import { startStack, type Stack } from './support/stack';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createTestDatabase, type TestDatabase } from '@mapi/testing';

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const srv = createServer().once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });

type Got = { type: string; data: any }[];

/** The client's `on`, typed for the catalogue names only, also takes socket.io's own (connect, connect_error). */
const on = (c: PeriskopeApi, type: string, cb: (...args: any[]) => void) =>
  (c as unknown as { on(t: string, f: (...a: any[]) => void): void }).on(type, cb);

/**
 * Realtime events through the public client, unchanged (env 'local' → socket.io on
 * http://localhost:8080), fed by sandbox phones: inbound messages and acks reach the client of the
 * organization, only for the x-phone phone, and nothing reaches another organization.
 */
describe('realtime events to the public @periskope/periskope-client', () => {
  let stack: Stack;
  // A database of its own: the outbox relays of every stack on a shared database publish any
  // unpublished row into THEIR namespace, so a stack running beside this one would take its events.
  let db: TestDatabase;
  let prisma: PrismaClient;
  let api: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const clients: { disconnect(): void }[] = [];

  /** A phone created, shown a QR and scanned on the sandbox network. */
  const connectedPhone = async () => {
    const created = await api.post('/phones/create', { phone_name: 'Desk' });
    const phoneId = created.body.phone_id;
    await until(
      () => api.get('/phones', { 'x-phone': phoneId }),
      (r) => r.body?.wa_state === 'QR',
      10_000,
      'QR',
    );
    const number = randomDigits();
    await api.post('/sandbox/phones/scan', { number }, { 'x-phone': phoneId });
    await until(
      () => api.get('/phones', { 'x-phone': phoneId }),
      (r) => r.body?.wa_state === 'CONNECTED',
      10_000,
      'connected',
    );
    return { phoneId, number };
  };

  /** The public client connected, recording every catalogue event it is sent. */
  const publicClient = async (token: string, phone: string) => {
    const c = new PeriskopeApi({ authToken: token, phone, env: 'local' });
    c.connect();
    clients.push(c);
    const got: Got = [];
    for (const type of ['message.created', 'message.ack.updated', 'chat.created', 'org.phone.connected'])
      on(c, type, (data: unknown) => got.push({ type, data }));
    await new Promise<void>((resolve, reject) => {
      on(c, 'connect', () => resolve());
      on(c, 'connect_error', (e: Error) => reject(e));
    });
    return { c, got };
  };

  const rawClient = async (token: string, phone?: string) => {
    const s: Socket = connect(stack.baseUrl, {
      transports: ['websocket'],
      extraHeaders: { Authorization: `Bearer ${token}`, ...(phone ? { 'x-phone': phone } : {}) },
    });
    clients.push(s);
    const got: Got = [];
    s.onAny((type, data) => got.push({ type, data }));
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('connect_error', reject);
    });
    return got;
  };

  beforeAll(async () => {
    // public-client.e2e-spec.ts needs 8080 too: wait for it rather than fail when both run at once.
    const deadline = Date.now() + 90_000;
    while (!(await portIsFree(8080))) {
      if (Date.now() > deadline) throw new Error('port 8080 is in use: stop the stack started by scripts/up.sh (scripts/down.sh) first');
      await new Promise((r) => setTimeout(r, 500));
    }
    db = await createTestDatabase('mapi_e2e_realtime');
    prisma = createPrismaClient({ url: db.url, poolSize: 2 });
    stack = await startStack({ SESSION_SCAN_MS: '200', DATABASE_URL: db.url }, { gatewayPort: 8080, services: ['phones'] });
    const org = await createOrg(prisma);
    w.token = (await createToken(prisma, org.id)).token;
    api = client(stack.baseUrl, w.token);
    [w.p1, w.p2] = await Promise.all([connectedPhone(), connectedPhone()]);
    const orgB = await createOrg(prisma);
    const phoneB = await createPhone(prisma, orgB.id);
    w.tokenB = (await createToken(prisma, orgB.id)).token;
    w.phoneB = String(phoneB.org_phone).replace('@c.us', '');
    w.contact = randomDigits();
  }, 150_000);

  afterAll(async () => {
    clients.forEach((c) => c.disconnect());
    await stack?.stop();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('refuses a bad token at the handshake with the reason, like HTTP', async () => {
    const c = new PeriskopeApi({ authToken: 'mapi_wrong', phone: w.p1.number, env: 'local' });
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    c.connect();
    const error = await new Promise<any>((resolve) => on(c, 'connect_error', resolve));
    c.disconnect();
    errors.mockRestore();
    expect(error.message).toMatch(/Invalid bearer token/);
    expect(error.data).toMatchObject({ code: 'UNAUTHORIZED_ERROR', status: 401 });
  });

  it('delivers message.created for an inbound message and message.ack.updated as acks advance; only to the phone and organization', async () => {
    const p1 = await publicClient(w.token, w.p1.number);
    const onlyP2 = await rawClient(w.token, w.p2.phoneId);
    const orgWide = await rawClient(w.token);
    const other = await publicClient(w.tokenB, w.phoneB);

    const inbound = await api.post('/sandbox/messages', { chat_id: w.contact, body: 'Hello there' }, { 'x-phone': w.p1.phoneId });
    expect(inbound.status).toBe(200);
    const created = await until(async () => p1.got.find((g) => g.type === 'message.created'), Boolean, 10_000, 'message.created');
    expect(MessageSchema.safeParse(created?.data).success).toBe(true);
    expect(created?.data).toMatchObject({
      message_id: inbound.body.message_id,
      body: 'Hello there',
      from_me: false,
      chat_id: `${w.contact}@c.us`,
    });

    const sent = await api.post(
      '/sandbox/messages',
      { chat_id: w.contact, from_me: true, body: 'Hi, how can we help?' },
      { 'x-phone': w.p1.phoneId },
    );
    await until(
      async () => p1.got.filter((g) => g.type === 'message.created').length,
      (n) => n === 2,
      10_000,
      'sent message.created',
    );
    for (const ack of [2, 3])
      expect((await api.post('/sandbox/messages/ack', { unique_id: sent.body.unique_id, ack }, { 'x-phone': w.p1.phoneId })).status).toBe(
        200,
      );
    const acks = await until(
      async () => p1.got.filter((g) => g.type === 'message.ack.updated'),
      (a) => a.length === 2,
      10_000,
      'two acks',
    );
    expect(acks.map((a) => [a.data.unique_id, a.data.ack])).toEqual([
      [sent.body.unique_id, '2'],
      [sent.body.unique_id, '3'],
    ]);

    const onP2 = await api.post('/sandbox/messages', { chat_id: w.contact, body: 'to the second phone' }, { 'x-phone': w.p2.phoneId });
    await until(
      async () => onlyP2.filter((g) => g.type === 'message.created'),
      (m) => m.length === 1,
      10_000,
      'p2 message',
    );
    expect(onlyP2.find((g) => g.type === 'message.created')?.data.message_id).toBe(onP2.body.message_id);
    await until(
      async () => orgWide.filter((g) => g.type === 'message.created').length,
      (n) => n === 3,
      10_000,
      'org-wide sees both phones',
    );

    await new Promise((r) => setTimeout(r, 500));
    expect(p1.got.some((g) => g.data?.message_id === onP2.body.message_id)).toBe(false);
    // Everything the x-phone client got is about its phone (chats carry phone_id, messages org_phone).
    expect(onlyP2.length).toBeGreaterThan(0);
    expect(onlyP2.every((g) => g.data?.phone_id === w.p2.phoneId || g.data?.org_phone === `${w.p2.number}@c.us`)).toBe(true);
    expect(other.got).toEqual([]);
  });
});
