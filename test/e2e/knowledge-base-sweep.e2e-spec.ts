import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { EMBEDDING_QUEUE } from '@mapi/knowledge-base-feature/internals';
import { bullConnection, bullPrefix } from '@mapi/platform';
import { AppProcess, createOrg, createToken, freePort, testEnv } from '@mapi/testing';
import { callApi, until as untilTrue } from './support/http';
import { startStack, type Stack } from './support/stack';

jest.setTimeout(90_000);

/**
 * Lost embedding jobs come back: with the knowledge-base service's sweep running every 500 ms (entries
 * pending for over 1 s), a job removed from Redis, or the whole queue wiped, is re-enqueued under the
 * same id, and an embedding worker started afterwards embeds the entry. Real processes, Redis, Postgres.
 */
describe('knowledge base: the sweep re-queues lost embedding jobs', () => {
  let stack: Stack;
  let kb: AppProcess;
  let worker: AppProcess | undefined;
  let queue: Queue;
  let storageRoot: string;
  let env: Record<string, string>;
  const w: Record<string, any> = {};

  const api = (method: string, path: string, body?: unknown) => callApi(stack.baseUrl, method, path, w.t, body);
  const until = (what: string, check: () => Promise<boolean>, ms = 20_000) => untilTrue(check, (ok) => ok, ms, what);

  beforeAll(async () => {
    const namespace = `${testEnv.namespace()}-kbs`;
    stack = await startStack({ NAMESPACE: namespace });
    storageRoot = mkdtempSync(join(tmpdir(), 'kb-sweep-e2e-'));
    env = {
      ...stack.env, // its database, NAMESPACE and servers
      HEALTH_HOST: '127.0.0.1',
      MEDIA_STORAGE_ROOT: storageRoot,
      KB_CREATE_WAIT_FOR_EMBEDDING_MS: '0',
      KB_EMBEDDING_SWEEP_INTERVAL_MS: '500',
      KB_EMBEDDING_SWEEP_AFTER_MS: '1000',
    };
    const health = await freePort();
    kb = AppProcess.start('knowledge-base', { ...env, HEALTH_PORT: String(health) });
    await kb.waitReady(`http://127.0.0.1:${health}/health/ready`);
    queue = new Queue(EMBEDDING_QUEUE, { connection: bullConnection(testEnv.redisUrl()), prefix: bullPrefix(namespace) });
    w.org = await createOrg(stack.prisma);
    w.t = (await createToken(stack.prisma, w.org.id)).token;
  }, 120_000);

  afterAll(async () => {
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await Promise.all([kb?.stop(), worker?.stop()]);
    await stack?.stop();
    rmSync(storageRoot, { recursive: true, force: true });
  });

  it('restores a removed job and a wiped queue; a worker then embeds the entries', async () => {
    // No worker yet: the jobs wait in the queue.
    const a = await api('POST', '/knowledge-base/faq/create', { question: 'Do you deliver on Sunday?', answer: 'No, Monday to Saturday.' });
    const b = await api('POST', '/knowledge-base/faq/create', { question: 'Can I return a gift?', answer: 'Within 30 days.' });
    expect(a.status).toBe(200);
    expect(a.body.embedding).toBeNull();
    const jobA = `${a.body.context_id}-v1`;
    const jobB = `${b.body.context_id}-v1`;
    expect(await queue.getJob(jobA)).toBeDefined();

    await queue.remove(jobA); // one job dropped
    expect(await queue.getJob(jobA)).toBeUndefined();
    await until('the sweep to restore the removed job', async () => (await queue.getJob(jobA)) !== undefined);
    expect((await queue.getJob(jobA))!.data).toMatchObject({ org_id: w.org.id, context_ids: [a.body.context_id] });

    await queue.obliterate({ force: true }); // the whole queue gone, as when Redis is flushed
    expect(await queue.getJob(jobB)).toBeUndefined();
    await until(
      'the sweep to restore both jobs',
      async () => (await queue.getJob(jobA)) !== undefined && (await queue.getJob(jobB)) !== undefined,
    );
    expect(await queue.getJobCountByTypes('waiting')).toBe(2); // one job each: the ids make it idempotent
    await new Promise((r) => setTimeout(r, 1_200)); // more sweeps run: still one job each
    expect(await queue.getJobCountByTypes('waiting')).toBe(2);

    const port = await freePort();
    worker = AppProcess.start('embedding-worker', { ...env, HEALTH_PORT: String(port) });
    await worker.waitReady(`http://127.0.0.1:${port}/health/ready`);
    for (const id of [a.body.context_id, b.body.context_id]) {
      await until(`the embedding of ${id}`, async () => (await api('GET', `/knowledge-base/faq/${id}`)).body.embedding !== null);
    }
    const search = await api('POST', '/knowledge-base/search', { query: 'Sunday delivery', k: 1 });
    expect(search.body.data[0]).toMatchObject({ context_id: a.body.context_id });
  });
});
