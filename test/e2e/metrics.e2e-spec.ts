import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { EMBEDDING_QUEUE, KbEntryRepository } from '@mapi/knowledge-base-feature/internals';
import { bullConnection, bullPrefix } from '@mapi/platform';
import { createMessages, createOrg, createPhone, createToken, freePort, randomDigits, testEnv } from '@mapi/testing';
import { client, until } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

const LEGACY = 'https://legacy.example.com/storage/v1/object/public';

/** A started process's metrics, as Prometheus scrapes them from its health port. */
async function scrape(url: string) {
  const res = await fetch(`${url}/metrics`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The value of the first sample named `name` whose labels include every one of `labels`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text
    .split('\n')
    .find(
      (l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Issue 20 item 1: every app serves GET /metrics on its health port, in Prometheus's text format. */
describe('metrics of started processes', () => {
  let stack: Stack;
  const w: Record<string, any> = {};

  beforeAll(async () => {
    // The queue's workers are off, so a sent message stays due (its depth and age can be read).
    stack = await startStack(
      { SESSION_SCAN_MS: '200', QUEUE_WORKER_ENABLED: 'false' },
      { services: ['phones', 'queue', 'embedding-worker'] },
    );
    w.org = await createOrg(stack.prisma);
    w.phone = await createPhone(stack.prisma, w.org.id);
    w.chat = `${randomDigits()}@c.us`;
    await createMessages(stack.prisma, w.org, w.phone, [{ chatId: w.chat }]);
    w.token = (await createToken(stack.prisma, w.org.id)).token;
  }, 180_000);

  afterAll(() => stack?.stop());

  const get = (path: string) => fetch(`${stack.baseUrl}/v1${path}`, { headers: { authorization: `Bearer ${w.token}` } });

  it('counts gateway requests by route template and status, never by raw path', async () => {
    const before =
      sample((await scrape(stack.healthUrl(stack.gateway))).text, 'http_server_request_duration_count', {
        http_route: '/v1/chats/:chat_id/messages',
        http_response_status_code: '200',
      }) ?? 0;
    for (let i = 0; i < 3; i++) expect((await get(`/chats/${w.chat}/messages`)).status).toBe(200);
    expect((await get('/chats/not-a-chat!/messages')).status).toBe(422);
    expect((await get('/no-such-route-x7q')).status).toBe(404);
    const { status, type, text } = await scrape(stack.healthUrl(stack.gateway));
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain/);
    expect(
      sample(text, 'http_server_request_duration_count', {
        http_route: '/v1/chats/:chat_id/messages',
        http_response_status_code: '200',
        http_request_method: 'GET',
      }),
    ).toBe(before + 3);
    expect(
      sample(text, 'http_server_request_duration_count', { http_route: '/v1/chats/:chat_id/messages', http_response_status_code: '422' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_server_request_duration_bucket', {
        http_route: '/v1/chats/:chat_id/messages',
        http_response_status_code: '200',
        le: '+Inf',
      }),
    ).toBe(before + 3);
    expect(text).not.toContain('no-such-route-x7q');
    expect(text).not.toContain(w.chat);
  });

  it("reports the gateway's open realtime connections", async () => {
    const { text } = await scrape(stack.healthUrl(stack.gateway));
    expect(text).toMatch(/^mapi_realtime_connections(\{\})? 0$/m);
  });

  it("counts each service's RPCs by subject and status", async () => {
    expect((await get(`/chats/${w.chat}/messages`)).status).toBe(200);
    const { status, text } = await scrape(stack.healthUrl(stack.chats));
    expect(status).toBe(200);
    expect(
      sample(text, 'rpc_server_call_duration_count', {
        rpc_system: 'nats',
        rpc_method: 'chats.v1.messages.list',
        http_response_status_code: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('shows phone sessions by state (phones) and ingestion lag (chats) once a sandbox phone receives a message', async () => {
    const api = client(stack.baseUrl, w.token);
    const { phoneId } = await connectedSandboxPhone(api);
    const phones = stack.healthUrl(stack.apps.phones);
    const sessions = await until(
      () => scrape(phones),
      (r) => sample(r.text, 'mapi_phone_sessions', { state: 'CONNECTED' }) !== undefined,
      10_000,
      'sessions gauge',
    );
    expect(sample(sessions.text, 'mapi_phone_sessions', { state: 'CONNECTED' })).toBeGreaterThanOrEqual(1);
    const lagBefore = sample((await scrape(stack.healthUrl(stack.chats))).text, 'mapi_ingest_lag_count', {}) ?? 0;
    expect((await api.post('/sandbox/messages', { chat_id: randomDigits(), body: 'metrics' }, { 'x-phone': phoneId })).status).toBe(200);
    const after = await until(
      () => scrape(stack.healthUrl(stack.chats)),
      (r) => (sample(r.text, 'mapi_ingest_lag_count', {}) ?? 0) > lagBefore,
      10_000,
      'ingest lag',
    );
    expect(sample(after.text, 'mapi_ingest_lag_bucket', { le: '+Inf' })).toBeGreaterThan(lagBefore);
  });

  it('shows the send queue per phone (depth, how long its next due job has waited) and the phones with due jobs (queue)', async () => {
    const api = client(stack.baseUrl, w.token);
    const { phoneId } = await connectedSandboxPhone(api);
    const queue = stack.healthUrl(stack.apps.queue);
    const at = Date.now();
    for (let i = 0; i < 2; i++)
      expect(
        (await api.post('/message/send', { chat_id: `${randomDigits()}@c.us`, message: `queued ${i}` }, { 'x-phone': phoneId })).status,
      ).toBe(200);
    const { text } = await until(
      () => scrape(queue),
      (r) => sample(r.text, 'mapi_queue_phone_jobs', { phone_id: phoneId, state: 'waiting' }) === 2,
      10_000,
      'per-phone depth',
    );
    expect(sample(text, 'mapi_queue_phone_jobs', { phone_id: phoneId, state: 'active' })).toBe(0);
    expect(sample(text, 'mapi_queue_jobs', { state: 'waiting' })).toBe(2);
    expect(sample(text, 'mapi_queue_phones_waiting', {})).toBe(1);
    await new Promise((r) => setTimeout(r, 1_100)); // past the gauge's 1 s cache
    const later = await scrape(queue);
    const age = sample(later.text, 'mapi_queue_phone_oldest_due_age', { phone_id: phoneId }) ?? -1;
    expect(age).toBeGreaterThanOrEqual(1);
    expect(age).toBeLessThanOrEqual((Date.now() - at) / 1000);
    expect(later.text).toMatch(/^# TYPE mapi_queue_phone_oldest_due_age gauge$/m);
    expect(later.text).not.toContain(w.org.id);
  });

  it('shows the embedding backlog: jobs by state and entries not yet embedded (embedding-worker)', async () => {
    const worker = stack.healthUrl(stack.apps['embedding-worker']);
    // Two entries with no job (pending), one job scheduled for later (delayed): nothing the worker takes now.
    await new KbEntryRepository(stack.prisma).insertMany(
      w.org.id,
      [1, 2].map((i) => ({
        type: 'faq' as const,
        question: `q${i}?`,
        answer: 'a',
        is_active: true,
        attachments: null,
        document_id: null,
        metadata: null,
      })),
    );
    const queue = new Queue(EMBEDDING_QUEUE, { connection: bullConnection(testEnv.redisUrl()), prefix: bullPrefix(stack.env.NAMESPACE) });
    try {
      await queue.add('embed', { org_id: w.org.id, context_ids: [], trace: {} }, { delay: 3_600_000 });
      const { text } = await until(
        () => scrape(worker),
        (r) => sample(r.text, 'mapi_embedding_jobs', { state: 'delayed' }) === 1,
        10_000,
        'embedding backlog',
      );
      expect(sample(text, 'mapi_embedding_jobs', { state: 'waiting' })).toBe(0);
      expect(sample(text, 'mapi_embedding_entries_pending', {})).toBe(2);
    } finally {
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
    }
  });

  it("serves media's metrics on its health port too, not on its public file port", async () => {
    const port = await freePort();
    const media = await stack.startService('media', {
      MEDIA_HTTP_PORT: String(port),
      MEDIA_HTTP_HOST: '127.0.0.1',
      MEDIA_BASE_URL: `http://127.0.0.1:${port}`,
      MEDIA_STORAGE_BACKEND: 'local',
      MEDIA_STORAGE_ROOT: mkdtempSync(join(tmpdir(), 'metrics-media-')),
      MEDIA_BUCKETS: 'message-media',
      MEDIA_LEGACY_STORAGE_URL: LEGACY,
    });
    const api = client(stack.baseUrl, w.token);
    // a legacy URL of no organization of ours: media answers it (403), which is all this needs
    expect((await api.post('/media/migrate-url', { url: `${LEGACY}/message-media/missing%2Fnone.jpg` })).status).toBe(403);
    const { status, type, text } = await scrape(stack.healthUrl(media));
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain/);
    expect(sample(text, 'rpc_server_call_duration_count', { rpc_method: 'media.v1.migrate-url' })).toBe(1);
    expect((await fetch(`${stack.healthUrl(media)}/health/ready`)).status).toBe(200);
    expect((await scrape(`http://127.0.0.1:${port}`)).status).toBe(404);
  });

  it("shows each stream consumer consuming (chats' ingest, the gateway's realtime reader)", async () => {
    expect(sample((await scrape(stack.healthUrl(stack.chats))).text, 'mapi_stream_consumer_up', { consumer: 'chats-ingest' })).toBe(1);
    expect(sample((await scrape(stack.healthUrl(stack.gateway))).text, 'mapi_stream_consumer_up', { consumer: 'realtime' })).toBe(1);
  });

  it("leaves out the instrumentation libraries' own metrics (HTTP client/server, pg)", async () => {
    for (const app of [stack.gateway, stack.chats]) {
      const { text } = await scrape(stack.healthUrl(app));
      expect(text).not.toMatch(/^http_server_duration|^http_client|^db_client/m);
    }
  });
});
