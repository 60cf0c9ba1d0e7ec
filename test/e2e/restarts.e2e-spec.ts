import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess, createOrg, createToken, freePort, randomDigits } from '@mapi/testing';
import { client, until, type Answer } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Restarts nobody sees (issue 20, item 5): every service app that answers requests gets SIGTERM while a
 * steady load of reads (one route of each service) and sends runs through the gateway, and a new
 * instance is started after it exits. The only replica is gone for a while each time: the gateway
 * holds the requests that reached nobody (RPC_UNAVAILABLE_RETRY_MS) until the new one answers. Every
 * request gets the same answer it got before the restarts, never a 5xx; every send reaches the
 * network exactly once. Last, the gateway itself gets SIGTERM with requests in flight: they complete.
 */
describe('restarts under load', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let phoneId: string;
  let mediaRoot: string;
  let mediaEnv: Record<string, string>;
  const running: Record<string, AppProcess> = {};

  beforeAll(async () => {
    mediaRoot = await mkdtemp(join(tmpdir(), 'mapi-restarts-'));
    const mediaPort = await freePort();
    mediaEnv = {
      MEDIA_HTTP_PORT: String(mediaPort),
      MEDIA_HTTP_HOST: '127.0.0.1',
      MEDIA_BASE_URL: `http://127.0.0.1:${mediaPort}`,
      MEDIA_STORAGE_BACKEND: 'local',
      MEDIA_STORAGE_ROOT: mediaRoot,
      MEDIA_BUCKETS: 'message-media',
      MEDIA_LEGACY_STORAGE_URL: 'https://legacy.example.com/storage/v1/object/public',
      MEDIA_JWT_KEYS: JSON.stringify([{ kid: 'k1', secret: 'restarts-test-signing-key-0123456789abcdef' }]),
    };
    stack = await startStack(
      {
        SESSION_SCAN_MS: '200',
        QUEUE_SEND_INTERVAL_MS: '20',
        QUEUE_SEND_JITTER_MS: '10',
        QUEUE_PHONE_SCAN_MS: '200',
        RPC_TIMEOUT_MS: '30000',
        RPC_UNAVAILABLE_RETRY_MS: '25000',
        RATE_LIMIT_PER_SECOND: '100000',
      },
      { services: ['phones', 'queue'] },
    );
    // the other services in waves, so each comes up within its readiness timeout on a busy 2-core machine
    Object.assign(running, stack.apps);
    for (const wave of [
      ['groups', 'inbox'],
      ['knowledge-base', 'webhooks-dispatcher'],
    ]) {
      const started = await Promise.all(wave.map((app) => stack.startService(app)));
      wave.forEach((app, i) => (running[app] = started[i]));
    }
    running.media = await startMedia();
    const org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    ({ phoneId } = await connectedSandboxPhone(api));
  }, 120_000);

  afterAll(async () => {
    await running.media?.stop();
    await stack?.stop();
    await rm(mediaRoot, { recursive: true, force: true });
  }, 60_000);

  async function startMedia(): Promise<AppProcess> {
    const proc = AppProcess.start('media', { ...stack.env, ...mediaEnv });
    await proc.waitReady(`${mediaEnv.MEDIA_BASE_URL}/health/ready`);
    return proc;
  }

  /** One route of each service that answers requests, and the service that answers it. */
  const reads: [string, () => Promise<Answer>][] = [
    ['chats', () => api.get('/chats?limit=5')],
    ['phones', () => api.get('/phones/all')],
    ['queue', () => api.get('/queue', { 'x-phone': phoneId })],
    ['knowledge-base', () => api.get('/knowledge-base')],
    ['webhooks-dispatcher', () => api.get('/webhooks')],
    ['inbox', () => api.get('/tickets?limit=5')],
    ['groups', () => api.post(`/chats/${randomDigits()}@g.us/invite`, {}, { 'x-phone': phoneId })],
    ['media', () => api.post('/media/migrate-url', { url: `${mediaEnv.MEDIA_LEGACY_STORAGE_URL}/message-media/missing%2Fnone.jpg` })],
  ];

  it('SIGTERM of each service under load: exit 0, no request fails or changes its answer, every send reaches the network once', async () => {
    // what each route answers with every service up (a 404 of the groups or media service is its own answer)
    const expected = new Map<string, number>();
    for (const [app, read] of reads) expected.set(app, (await read()).status);
    expect([...expected.values()].every((s) => s < 500)).toBe(true);

    const seen: { app: string; status: number | string }[] = [];
    const sends: { chat: string; status: number; queue_id?: string }[] = [];
    let loading = true;
    const reader = async (offset: number) => {
      for (let i = offset; loading; i++) {
        const [app, read] = reads[i % reads.length];
        seen.push({
          app,
          status: await read().then(
            (r) => (r.status >= 500 ? `${r.status} ${r.body?.code} ${r.body?.message}` : r.status),
            (e: Error) => e.message,
          ),
        });
        await sleep(25);
      }
    };
    const sender = async () => {
      while (loading) {
        const chat = randomDigits();
        const res = await api.post(
          '/message/send',
          { chat_id: chat, message: `restart ${chat}` },
          { 'x-phone': phoneId, 'idempotency-key': chat },
        );
        sends.push({ chat, status: res.status, queue_id: res.body?.queue_id });
        await sleep(150);
      }
    };
    const load = Promise.all([reader(0), reader(3), reader(5), sender()]);

    for (const app of reads.map(([name]) => name)) {
      const before = seen.length;
      expect(await running[app].stop('SIGTERM')).toBe(0);
      await sleep(300); // no instance at all for a moment: requests wait in the gateway
      running[app] = app === 'media' ? await startMedia() : await stack.startService(app);
      await until(
        async () => seen.filter((s, i) => i >= before && s.app === app).length,
        (n) => n >= 2,
        30_000,
        `${app} answering again`,
      );
    }
    loading = false;
    await load;

    const wrong = seen.filter((s) => s.status !== expected.get(s.app));
    const tally = (xs: { app: string; status: number | string }[]) =>
      Object.entries(
        xs.reduce<Record<string, number>>((a, x) => ({ ...a, [`${x.app} ${x.status}`]: (a[`${x.app} ${x.status}`] ?? 0) + 1 }), {}),
      );
    expect(tally(wrong)).toEqual([]);
    for (const app of expected.keys()) expect(seen.filter((s) => s.app === app).length).toBeGreaterThan(3);
    expect(sends.filter((s) => s.status !== 200)).toEqual([]);
    expect(sends.length).toBeGreaterThan(10);
    // every send on the network once, as the message of its queue id
    await until(
      () => stack.prisma.message.count({ where: { phone_id: phoneId, from_me: true, body: { startsWith: 'restart ' } } }),
      (n) => n >= sends.length,
      45_000,
      'every send delivered',
    );
    await sleep(500);
    const delivered = await stack.prisma.message.findMany({
      where: { phone_id: phoneId, from_me: true, body: { startsWith: 'restart ' } },
      select: { chat_id: true, sent_message_id: true },
    });
    expect(delivered).toHaveLength(sends.length);
    expect(new Set(delivered.map((m) => m.sent_message_id))).toEqual(new Set(sends.map((s) => s.queue_id)));
  }, 240_000);

  it('SIGTERM of the gateway: requests it has received complete (even ones waiting for a restarting service), then it exits 0', async () => {
    // In Kubernetes the pod leaves the Service's endpoints (preStop) before SIGTERM, so no new
    // connection reaches it; what must not fail is what it already holds. These wait in the gateway
    // for a chats instance while the gateway itself is told to stop.
    expect(await running.chats.stop('SIGTERM')).toBe(0);
    const inFlight = Array.from({ length: 12 }, () =>
      api.get('/chats?limit=5').then(
        (a) => a.status,
        (e: Error) => String(e.cause ?? e),
      ),
    );
    await sleep(1_000);
    const exited = stack.gateway.stop('SIGTERM');
    await sleep(300);
    running.chats = await stack.startService('chats');
    expect(await Promise.all(inFlight)).toEqual(Array(12).fill(200));
    expect(await exited).toBe(0);
  }, 90_000);
});
