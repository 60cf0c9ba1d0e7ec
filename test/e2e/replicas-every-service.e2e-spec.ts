import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess, createOrg, createToken, freePort, randomDigits } from '@mapi/testing';
import { client, until, type Answer } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { inWindow, startStack, type Stack } from './support/stack';
const { startReceiver } = require('../../bench/webhooks/receiver.js');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Every service scales by replicas (issue 22 item 2): two of each — gateway, chats, groups, queue,
 * webhooks-dispatcher, knowledge-base, embedding-worker, media, inbox (phones hands sessions over:
 * phones-resilience.e2e) — with traffic through both gateways. Every request is answered as with one
 * replica, every send reaches the network once, every message event reaches the webhook receiver,
 * every FAQ is embedded, and each replica did some of the work. Then one replica of each is
 * SIGKILLed under load: sends (retried by the client with their Idempotency-Key), webhook deliveries
 * and embeddings still all happen, and none twice.
 */
describe('every service in replicas', () => {
  let stack: Stack;
  let receiver: any;
  let mediaRoot: string;
  let apis: ReturnType<typeof client>[];
  let phones: string[];
  let second: Record<string, AppProcess>;
  let first: Record<string, AppProcess>;
  const mediaBase = 'https://legacy.example.com/storage/v1/object/public';

  const medias: AppProcess[] = [];
  const startMedia = async (): Promise<AppProcess> => {
    const port = await freePort();
    const proc = AppProcess.start('media', {
      ...stack.env,
      MEDIA_HTTP_PORT: String(port),
      MEDIA_HTTP_HOST: '127.0.0.1',
      MEDIA_BASE_URL: `http://127.0.0.1:${port}`,
      MEDIA_STORAGE_BACKEND: 'local',
      MEDIA_STORAGE_ROOT: mediaRoot,
      MEDIA_BUCKETS: 'message-media',
      MEDIA_LEGACY_STORAGE_URL: mediaBase,
      MEDIA_JWT_KEYS: JSON.stringify([{ kid: 'k1', secret: 'replicas-test-signing-key-0123456789abcdef' }]),
    });
    medias.push(proc);
    await proc.waitReady(`http://127.0.0.1:${port}/health/ready`);
    return proc;
  };
  const startGateway = async (): Promise<{ proc: AppProcess; baseUrl: string }> => {
    const [port, health] = [await freePort(), await freePort()];
    const proc = AppProcess.start('api-gateway', {
      ...stack.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      HEALTH_PORT: String(health),
      HEALTH_HOST: '127.0.0.1',
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    await proc.waitReady(`${baseUrl}/health/ready`);
    return { proc, baseUrl };
  };

  beforeAll(async () => {
    [receiver, mediaRoot] = await Promise.all([startReceiver(), mkdtemp(join(tmpdir(), 'mapi-replicas-'))]);
    stack = await startStack(
      {
        SESSION_SCAN_MS: '200',
        QUEUE_PHONE_SCAN_MS: '200',
        QUEUE_SEND_INTERVAL_MS: '20',
        QUEUE_SEND_JITTER_MS: '0',
        QUEUE_JOB_LOCK_MS: '1500',
        WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        WEBHOOK_CLAIM_LEASE_MS: '2000',
        WEBHOOK_RETRY_SCHEDULE_MS: '0,300,300',
        EMBEDDING_JOB_LOCK_MS: '2000',
        RPC_TIMEOUT_MS: '5000',
        RPC_UNAVAILABLE_RETRY_MS: '20000',
        RATE_LIMIT_PER_SECOND: '100000',
      },
      { services: ['phones', 'queue'] },
    );
    first = { ...stack.apps, 'api-gateway': stack.gateway };
    second = {};
    // The rest three at a time (each next one as soon as one is ready, not in waves that wait for
    // their slowest), so each comes up within its readiness timeout on a busy 2-core machine.
    const rest = [
      'chats',
      'queue',
      'groups',
      'inbox',
      'inbox',
      'groups',
      'knowledge-base',
      'knowledge-base',
      'embedding-worker',
      'embedding-worker',
      'webhooks-dispatcher',
      'webhooks-dispatcher',
    ];
    const place = (app: string, proc: AppProcess) => (first[app] ? (second[app] = proc) : (first[app] = proc));
    let gateway2!: { proc: AppProcess; baseUrl: string };
    await inWindow<unknown>([
      async () => {
        gateway2 = await startGateway();
        second['api-gateway'] = gateway2.proc;
      },
      ...rest.map((app) => async () => place(app, await stack.startService(app))),
      async () => place('media', await startMedia()),
      async () => place('media', await startMedia()),
    ]);
    const org = await createOrg(stack.prisma);
    const token = (await createToken(stack.prisma, org.id)).token;
    apis = [client(stack.baseUrl, token), client(gateway2.baseUrl, token)];
    phones = (await Promise.all(apis.map((api) => connectedSandboxPhone(api)))).map((p) => p.phoneId);
    const sub = await apis[0].post('/webhooks', { hookUrl: `${receiver.url}/events`, integrationName: ['message.created'] });
    expect(sub.status).toBe(201);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([...new Set([...Object.values(second ?? {}), ...medias])].map((p) => p.stop()));
    await stack?.stop();
    await receiver?.close();
    await rm(mediaRoot, { recursive: true, force: true });
  }, 60_000);

  const SERVICES = ['chats', 'queue', 'groups', 'inbox', 'knowledge-base', 'webhooks-dispatcher', 'media'];
  /** One read of each service; `i` picks the gateway. */
  const reads: [string, (api: ReturnType<typeof client>) => Promise<Answer>][] = [
    ['chats', (api) => api.get('/chats?limit=5', { 'x-phone': phones[0] })],
    ['queue', (api) => api.get('/queue', { 'x-phone': phones[1] })],
    ['knowledge-base', (api) => api.get('/knowledge-base')],
    ['webhooks-dispatcher', (api) => api.get('/webhooks')],
    ['inbox', (api) => api.get('/tickets?limit=5')],
    ['groups', (api) => api.post(`/chats/${randomDigits()}@g.us/invite`, {}, { 'x-phone': phones[0] })],
    ['media', (api) => api.post('/media/migrate-url', { url: `${mediaBase}/message-media/missing%2Fnone.jpg` })],
  ];
  const rpcLines = (p: AppProcess) => p.lines.filter((l) => l.includes('"msg":"rpc"')).length;
  const linesWith = (p: AppProcess, msg: string) => p.lines.filter((l) => l.includes(`"msg":"${msg}"`)).length;

  /** A send retried on any failure with the same Idempotency-Key, as a client does: one queue id however often. */
  const send = async (i: number, tag: string): Promise<{ chat: string; queue_id: string }> => {
    const chat = randomDigits();
    const failures: string[] = [];
    for (let attempt = 0; ; attempt++) {
      const api = apis[(i + attempt) % apis.length];
      const res = await api
        .post(
          '/message/send',
          { chat_id: chat, message: `${tag} ${chat}` },
          { 'x-phone': phones[i % 2], 'idempotency-key': `${tag}-${chat}` },
        )
        .catch((e: Error) => e);
      if (!(res instanceof Error) && res.status === 200) return { chat, queue_id: res.body.queue_id };
      failures.push(res instanceof Error ? String(res.cause ?? res.message) : `${res.status} ${JSON.stringify(res.body)}`);
      if (attempt > 20) throw new Error(`send ${chat}: ${failures.join('; ')}`);
      await sleep(200);
    }
  };
  const createFaqs = (n: number, tag: string) =>
    Promise.all(
      Array.from({ length: n }, async (_, i) => {
        // A 503 (Retry-After: the database is out of connections for a moment, with two of every
        // service on one Postgres) is retried as a client would; anything else must be a 200.
        let res = await apis[i % 2].post('/knowledge-base/faq/create', { question: `${tag} question ${i}?`, answer: `answer ${i}` });
        for (let attempt = 0; res.status === 503 && attempt < 20; attempt++) {
          await sleep(200);
          res = await apis[i % 2].post('/knowledge-base/faq/create', { question: `${tag} question ${i}?`, answer: `answer ${i}` });
        }
        expect({ status: res.status, body: res.status === 200 ? null : res.body }).toEqual({ status: 200, body: null });
        return res.body.context_id as string;
      }),
    );
  const delivered = (tag: string) =>
    stack.prisma.message.findMany({ where: { from_me: true, body: { startsWith: `${tag} ` } }, select: { sent_message_id: true } });
  const allEmbedded = async (ids: string[]) =>
    Number(
      (
        await stack.prisma.$queryRaw<
          Array<{ n: bigint }>
        >`SELECT count(*) AS n FROM knowledge_base_entries WHERE context_id = ANY(${ids}::uuid[]) AND embedding IS NOT NULL`
      )[0].n,
    ) === ids.length;
  /** Every message.created event of the outbox reached the receiver (duplicates only with the same id). */
  const webhooksComplete = async () => {
    const events = await stack.prisma.$queryRaw<
      Array<{ event_id: string }>
    >`SELECT id::text AS event_id FROM outbox_events WHERE type = 'message.created'`;
    const got = new Set<string>(
      receiver.requests
        .filter((r: { path: string }) => r.path === '/events')
        .map((r: { headers: Record<string, string> }) => r.headers['webhook-id']),
    );
    return {
      events: events.length,
      missing: events.filter((e) => !got.has(e.event_id)).length,
      unknown: [...got].filter((id) => !events.some((e) => e.event_id === id)).length,
    };
  };

  it('spreads the work over both replicas of each service, with every answer, send, event and embedding once', async () => {
    const expected = new Map<string, number>();
    for (const [app, read] of reads) expected.set(app, (await read(apis[0])).status);
    expect([...expected.values()].every((s) => s < 500)).toBe(true);

    const [sends, faqs, answers] = await Promise.all([
      Promise.all(Array.from({ length: 24 }, (_, i) => send(i, 'spread'))),
      createFaqs(16, 'spread'),
      Promise.all(
        Array.from({ length: 56 }, async (_, i) => {
          const [app, read] = reads[i % reads.length];
          return { app, status: (await read(apis[Math.floor(i / reads.length) % 2])).status };
        }),
      ),
    ]);
    expect(answers.filter((a) => a.status !== expected.get(a.app))).toEqual([]);

    await until(
      async () => (await delivered('spread')).length,
      (n) => n >= sends.length,
      30_000,
      'sends delivered',
    );
    await until(() => allEmbedded(faqs), Boolean, 30_000, 'FAQs embedded');
    await until(webhooksComplete, (w) => w.events >= sends.length && w.missing === 0, 30_000, 'webhooks delivered');
    await sleep(500);
    const sent = await delivered('spread');
    expect(sent.map((m) => m.sent_message_id).sort()).toEqual(sends.map((s) => s.queue_id).sort());
    expect((await webhooksComplete()).unknown).toBe(0);

    const work = Object.fromEntries(SERVICES.map((app) => [app, [rpcLines(first[app]), rpcLines(second[app])]]));
    work['queue sends'] = [linesWith(first.queue, 'message sent'), linesWith(second.queue, 'message sent')];
    work['embedding jobs'] = [
      linesWith(first['embedding-worker'], 'embedding job done'),
      linesWith(second['embedding-worker'], 'embedding job done'),
    ];
    const idle = Object.entries(work).filter(([, counts]) => counts.some((n) => n === 0));
    expect(idle).toEqual([]);
  }, 120_000);

  it('one replica of each SIGKILLed under load: every send once, every event delivered, every FAQ embedded', async () => {
    const faqs = await createFaqs(16, 'killed'); // their embedding jobs are queued or running when the workers die
    const sending = Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        await sleep(i * 40);
        return send(i, 'killed');
      }),
    );
    await sleep(300);
    const victims = Object.entries(second);
    await Promise.all(victims.map(([, p]) => p.kill()));
    const sends = await sending;

    await until(
      async () => (await delivered('killed')).length,
      (n) => n >= sends.length,
      45_000,
      'sends delivered',
    );
    await until(() => allEmbedded(faqs), Boolean, 45_000, 'FAQs embedded');
    await until(webhooksComplete, (w) => w.missing === 0, 45_000, 'webhooks delivered');
    await sleep(1_000);
    const sent = await delivered('killed');
    expect(sent.map((m) => m.sent_message_id).sort()).toEqual(sends.map((s) => s.queue_id).sort());
    expect((await webhooksComplete()).unknown).toBe(0);
    // The survivors answer every route.
    const after = await Promise.all(reads.map(async ([app, read]) => ({ app, status: (await read(apis[0])).status })));
    expect(after.filter((a) => a.status >= 500)).toEqual([]);
  }, 150_000);
});
