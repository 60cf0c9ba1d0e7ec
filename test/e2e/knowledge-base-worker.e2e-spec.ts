import { createServer, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OfflineHashEmbedder } from '@mapi/knowledge-base-feature/internals';
import { AppProcess, createOrg, createToken, freePort, testEnv } from '@mapi/testing';
import { startStack, type Stack } from './support/stack';

/**
 * The embedding worker with the OpenAI-compatible HTTP provider against a local server speaking
 * that protocol: create does not block on a slow provider, and a job survives its worker being killed.
 */
jest.setTimeout(60_000);

describe('knowledge base: embedding worker with the HTTP provider', () => {
  let stack: Stack;
  let kb: AppProcess;
  let provider: Server;
  let providerUrl: string;
  let storageDir: string;
  const workers: AppProcess[] = [];
  let env: Record<string, string>;
  const requests: string[][] = [];
  let hang = false;
  const held: ServerResponse[] = [];
  const reference = new OfflineHashEmbedder();
  const w: Record<string, any> = {};

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const started = Date.now();
    const res = await fetch(`${stack.baseUrl}/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any, ms: Date.now() - started };
  };
  const startWorker = async () => {
    const port = await freePort();
    const worker = AppProcess.start('embedding-worker', { ...env, HEALTH_PORT: String(port) });
    workers.push(worker);
    await worker.waitReady(`http://127.0.0.1:${port}/health/ready`);
    return worker;
  };
  const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  beforeAll(async () => {
    // The provider: OpenAI's /v1/embeddings protocol, vectors from the offline embedder (so results are checkable).
    provider = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw) as { input: string[]; model: string; dimensions: number };
        requests.push(body.input);
        if (req.headers.authorization !== 'Bearer sk-local' || body.model !== 'local-model' || body.dimensions !== 384) {
          res.writeHead(400).end('{"error":{"message":"bad request"}}');
          return;
        }
        if (hang) {
          held.push(res);
          return;
        }
        const data = body.input.map((t, index) => ({ object: 'embedding', index, embedding: reference.embedOne(t) }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
      });
    });
    await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
    providerUrl = `http://127.0.0.1:${(provider.address() as { port: number }).port}/v1`;

    // A namespace of this file's own: the services and the embedding queue of other e2e files must not answer here.
    const namespace = `${testEnv.namespace()}-kbw`;
    stack = await startStack({ NAMESPACE: namespace });
    storageDir = mkdtempSync(join(tmpdir(), 'kb-worker-e2e-'));
    env = {
      ...stack.env, // its database, NAMESPACE and servers
      HEALTH_HOST: '127.0.0.1',
      MEDIA_STORAGE_ROOT: storageDir,
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_HTTP_BASE_URL: providerUrl,
      EMBEDDING_HTTP_MODEL: 'local-model',
      EMBEDDING_HTTP_API_KEY: 'sk-local',
      EMBEDDING_HTTP_TIMEOUT_MS: '60000',
      EMBEDDING_JOB_LOCK_MS: '1500',
      KB_CREATE_WAIT_FOR_EMBEDDING_MS: '400',
    };
    const kbHealth = await freePort();
    kb = AppProcess.start('knowledge-base', { ...env, HEALTH_PORT: String(kbHealth) });
    await kb.waitReady(`http://127.0.0.1:${kbHealth}/health/ready`);
    w.org = await createOrg(stack.prisma);
    w.t = (await createToken(stack.prisma, w.org.id)).token;
  }, 120_000);

  afterAll(async () => {
    for (const res of held) res.destroy();
    await Promise.all([kb?.stop(), ...workers.map((x) => x.kill())]);
    await stack?.stop();
    await new Promise((r) => provider.close(r));
    rmSync(storageDir, { recursive: true, force: true });
  });

  it('embeds through the provider and searches with it', async () => {
    const worker = await startWorker();
    const res = await call('POST', '/knowledge-base/faq/create', w.t, {
      question: 'Where is the shop?',
      answer: 'On the main square.',
      is_active: true,
    });
    expect(res.status).toBe(200);
    let entry = res.body;
    await until('the embedding', async () => {
      entry = (await call('GET', `/knowledge-base/faq/${res.body.context_id}`, w.t)).body;
      return entry.embedding !== null;
    });
    expect(JSON.parse(entry.embedding)[0]).toBeCloseTo(reference.embedOne('Where is the shop?\nOn the main square.')[0], 5);
    const search = await call('POST', '/knowledge-base/search', w.t, { query: 'shop on the square' });
    expect(search.status).toBe(200);
    expect(search.body.data[0]).toMatchObject({ context_id: res.body.context_id });
    expect(requests.some((r) => r.length === 1 && r[0] === 'shop on the square')).toBe(true); // the query went to the provider
    await worker.stop();
  });

  it('answers create with embedding null while the provider is slow, and the job survives its worker being killed', async () => {
    const first = await startWorker();
    hang = true;
    const before = requests.length;
    const res = await call('POST', '/knowledge-base/faq/create', w.t, {
      question: 'Is there parking?',
      answer: 'Yes, behind the building.',
    });
    expect(res.status).toBe(200);
    expect(res.body.embedding).toBeNull(); // pending: the worker is stuck on the provider
    expect(res.ms).toBeLessThan(3_000); // the create waited at most KB_CREATE_WAIT_FOR_EMBEDDING_MS, not for the provider
    await until('the worker to call the provider', () => requests.length > before);

    await first.kill(); // SIGKILL mid-job: the job stays active with a lock nobody renews
    for (const r of held.splice(0)) r.destroy();
    hang = false;
    await startWorker(); // a new worker finds the stalled job once the lock expires (EMBEDDING_JOB_LOCK_MS)

    let entry: any;
    await until('the embedding after the crash', async () => {
      entry = (await call('GET', `/knowledge-base/faq/${res.body.context_id}`, w.t)).body;
      return entry.embedding !== null;
    });
    expect(JSON.parse(entry.embedding)).toHaveLength(384);
    expect(requests.filter((r) => r.includes('Is there parking?\nYes, behind the building.')).length).toBeGreaterThanOrEqual(2);
  });
});
