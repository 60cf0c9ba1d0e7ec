import { createOrg, createToken, randomDigits, type AppProcess } from '@mapi/testing';
import { client, until } from './support/http';
import { startStack, type Stack } from './support/stack';

/** Nothing is lost when a process dies: phones replicas take over sessions, chats resumes ingestion. */
describe('phones and chats under crashes', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let replicaB: AppProcess;
  const w: Record<string, any> = {};
  const started = (p: AppProcess, phoneId: string) => p.lines.some((l) => l.includes('"session started"') && l.includes(phoneId));
  const count = async (chat: string) => (await api.get(`/chats/${chat}/messages?limit=2000`, { 'x-phone': w.phoneId })).body;

  beforeAll(async () => {
    stack = await startStack({ SESSION_SCAN_MS: '300', PHONE_LEASE_TTL_MS: '3000' }, { services: ['phones'] });
    replicaB = await stack.startService('phones', { REPLICA_ID: 'replica-b' });
    // The crash test sends 120 messages at once: above the default 100 requests/s, which is not under test here.
    const org = await createOrg(stack.prisma, { rate_limit_per_second: 1_000 });
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    w.phoneId = (await api.post('/phones/create')).body.phone_id;
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
    w.chat = randomDigits();
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  it('runs each phone session on exactly one replica, and another takes it over within 15 s of a crash', async () => {
    const a = stack.apps.phones;
    const owner = await until(
      async () => [a, replicaB].filter((p) => started(p, w.phoneId)),
      (o) => o.length > 0,
      10_000,
      'an owner',
    );
    expect(owner).toHaveLength(1);
    const survivor = owner[0] === a ? replicaB : a;
    await owner[0].kill();
    const killedAt = Date.now();
    // messages sent while no replica runs the session wait in the network
    for (let i = 0; i < 5; i++)
      expect(
        (await api.post('/sandbox/messages', { chat_id: w.chat, body: `during failover ${i}` }, { 'x-phone': w.phoneId })).status,
      ).toBe(200);
    await until(
      async () => started(survivor, w.phoneId),
      (s) => s,
      15_000,
      'takeover',
    );
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    const page = await until(
      () => count(w.chat),
      (b) => b?.count === 5,
      10_000,
      'held messages delivered',
    );
    expect(new Set(page.messages.map((m: any) => m.body)).size).toBe(5);
  }, 60_000);

  it('loses and duplicates nothing when the chats service is killed while messages stream in', async () => {
    const chat = randomDigits();
    const total = 120;
    const send = (i: number) => api.post('/sandbox/messages', { chat_id: chat, body: `burst ${i}` }, { 'x-phone': w.phoneId });
    const first = await Promise.all(Array.from({ length: 40 }, (_, i) => send(i)));
    await stack.apps.chats.kill();
    const rest = await Promise.all(Array.from({ length: total - 40 }, (_, i) => send(40 + i)));
    expect([...first, ...rest].every((r) => r.status === 200)).toBe(true);
    await stack.startService('chats');
    const page = await until(
      () => count(chat),
      (b) => b?.count === total,
      30_000,
      'all messages stored',
    );
    expect(new Set(page.messages.map((m: any) => m.body)).size).toBe(total);
    const created = await until(
      () => stack.prisma.outboxEvent.count({ where: { type: 'message.created', payload: { path: ['chat_id'], equals: `${chat}@c.us` } } }),
      (n) => n >= total,
      10_000,
      'events',
    );
    expect(created).toBe(total);
  }, 90_000);
});
