import { AppProcess, createOrg, createToken, freePort, randomDigits } from '@mapi/testing';
import { io as connect, type Socket } from 'socket.io-client';
import { client, until } from './support/http';
import { startStack, type Stack } from './support/stack';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createTestDatabase, type TestDatabase } from '@mapi/testing';

/**
 * Two gateway replicas, each reading the event stream itself: a client on either one gets every
 * event of its organization once, in order per chat; a replica stopping drops its sockets cleanly.
 */
describe('realtime events across gateway replicas', () => {
  let stack: Stack;
  // A database of its own: the outbox relays of every stack on a shared database publish any
  // unpublished row into THEIR namespace, so a stack running beside this one would take its events.
  let db: TestDatabase;
  let prisma: PrismaClient;
  let second: AppProcess;
  let secondUrl: string;
  let api: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const sockets: Socket[] = [];

  const listen = async (baseUrl: string) => {
    const s = connect(baseUrl, { transports: ['websocket'], reconnection: false, extraHeaders: { Authorization: `Bearer ${w.token}` } });
    sockets.push(s);
    const created: any[] = [];
    s.on('message.created', (m) => created.push(m));
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('connect_error', reject);
    });
    return { s, created };
  };

  beforeAll(async () => {
    db = await createTestDatabase('mapi_e2e_realtime');
    prisma = createPrismaClient({ url: db.url, poolSize: 2 });
    stack = await startStack({ SESSION_SCAN_MS: '200', DATABASE_URL: db.url }, { services: ['phones'] });
    const port = await freePort();
    second = AppProcess.start('api-gateway', { ...stack.env, PORT: String(port), HOST: '127.0.0.1' });
    secondUrl = `http://127.0.0.1:${port}`;
    await second.waitReady(`${secondUrl}/health/ready`);
    const org = await createOrg(prisma);
    w.token = (await createToken(prisma, org.id)).token;
    api = client(stack.baseUrl, w.token);
    const created = await api.post('/phones/create', { phone_name: 'Desk' });
    w.phoneId = created.body.phone_id;
    await until(
      () => api.get('/phones', { 'x-phone': w.phoneId }),
      (r) => r.body?.wa_state === 'QR',
      10_000,
      'QR',
    );
    await api.post('/sandbox/phones/scan', { number: randomDigits() }, { 'x-phone': w.phoneId });
    await until(
      () => api.get('/phones', { 'x-phone': w.phoneId }),
      (r) => r.body?.wa_state === 'CONNECTED',
      10_000,
      'connected',
    );
  }, 150_000);

  afterAll(async () => {
    sockets.forEach((s) => s.disconnect());
    await second?.stop();
    await stack?.stop();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('clients on each replica both receive every event once, in order per chat', async () => {
    const clients = await Promise.all([listen(stack.baseUrl), listen(stack.baseUrl), listen(secondUrl), listen(secondUrl)]);
    const chats = [randomDigits(), randomDigits()];
    const sent: Record<string, string[]> = {};
    for (let i = 0; i < 20; i++) {
      const chat = chats[i % 2];
      const res = await api.post('/sandbox/messages', { chat_id: chat, body: `n${i}` }, { 'x-phone': w.phoneId });
      expect(res.status).toBe(200);
      (sent[`${chat}@c.us`] ??= []).push(res.body.message_id);
    }
    for (const c of clients)
      await until(
        async () => c.created.length,
        (n) => n >= 20,
        15_000,
        'all events',
      );
    await new Promise((r) => setTimeout(r, 300));
    for (const c of clients) {
      expect(c.created).toHaveLength(20);
      for (const chat of Object.keys(sent))
        expect(c.created.filter((m) => m.chat_id === chat).map((m) => m.message_id)).toEqual(sent[chat]);
    }
  });

  it('a replica stopping (SIGTERM) disconnects its sockets and exits cleanly; the other keeps delivering', async () => {
    const onSecond = await listen(secondUrl);
    const onFirst = await listen(stack.baseUrl);
    const gone = new Promise<string>((r) => onSecond.s.once('disconnect', r));
    expect(await second.stop('SIGTERM')).toBe(0);
    expect(await gone).toMatch(/io server disconnect|transport close/);
    const res = await api.post('/sandbox/messages', { chat_id: randomDigits(), body: 'after' }, { 'x-phone': w.phoneId });
    await until(
      async () => onFirst.created.map((m) => m.message_id),
      (ids) => ids.includes(res.body.message_id),
      10_000,
      'delivered by the first replica',
    );
  });
});
