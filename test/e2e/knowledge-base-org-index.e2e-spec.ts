import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orgIndexName } from '@mapi/knowledge-base-feature/internals';
import { AppProcess, createOrg, createToken, freePort, testEnv } from '@mapi/testing';
import { callApi, until } from './support/http';
import { startStack, type Stack } from './support/stack';

jest.setTimeout(90_000);

/**
 * The knowledge-base service gives a large organization its own HNSW index by itself: with the threshold
 * at 3 entries and the job every 300 ms, an organization with 3 FAQs gets `kb_entries_hnsw_half_<id>` (over halfvec)
 * (valid: built CONCURRENTLY to the end), one with 1 FAQ does not, and searches of both still answer
 * their own entries only, best first. Real processes (gateway, knowledge-base, embedding worker).
 */
describe('knowledge base: the service builds an index per large organization', () => {
  let stack: Stack;
  let kb: AppProcess;
  let worker: AppProcess;
  let storageRoot: string;
  const w: Record<string, any> = {};

  const api = (token: string, method: string, path: string, body?: unknown) => callApi(stack.baseUrl, method, path, token, body);
  const indexValid = async (orgId: string) =>
    (
      await stack.prisma.$queryRawUnsafe<Array<{ valid: boolean }>>(
        `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1`,
        orgIndexName(orgId),
      )
    )[0]?.valid ?? null;

  beforeAll(async () => {
    stack = await startStack({ NAMESPACE: `${testEnv.namespace()}-kbix` });
    storageRoot = mkdtempSync(join(tmpdir(), 'kb-org-index-e2e-'));
    const env = {
      ...stack.env,
      HEALTH_HOST: '127.0.0.1',
      MEDIA_STORAGE_ROOT: storageRoot,
      KB_ORG_INDEX_MIN_ENTRIES: '3',
      KB_ORG_INDEX_INTERVAL_MS: '300',
    };
    const [kbHealth, workerHealth] = [await freePort(), await freePort()];
    kb = AppProcess.start('knowledge-base', { ...env, HEALTH_PORT: String(kbHealth) });
    worker = AppProcess.start('embedding-worker', { ...env, HEALTH_PORT: String(workerHealth) });
    await kb.waitReady(`http://127.0.0.1:${kbHealth}/health/ready`);
    await worker.waitReady(`http://127.0.0.1:${workerHealth}/health/ready`);
    for (const name of ['large', 'small']) {
      w[name] = await createOrg(stack.prisma);
      w[`${name}Token`] = (await createToken(stack.prisma, w[name].id)).token;
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all([kb?.stop(), worker?.stop()]);
    await stack?.stop();
    if (storageRoot) rmSync(storageRoot, { recursive: true, force: true });
  });

  it('indexes the organization past the threshold, not the other, and both search their own entries', async () => {
    const faqs = [
      ['Do you deliver on Sunday?', 'No, Monday to Saturday.'],
      ['Can I return a gift?', 'Within 30 days, with the receipt.'],
      ['Where is the shop?', 'Main street 12, next to the station.'],
    ];
    for (const [question, answer] of faqs) {
      expect((await api(w.largeToken, 'POST', '/knowledge-base/faq/create', { question, answer, is_active: true })).status).toBe(200);
    }
    expect(
      (
        await api(w.smallToken, 'POST', '/knowledge-base/faq/create', {
          question: 'Can I return a gift?',
          answer: 'Never.',
          is_active: true,
        })
      ).status,
    ).toBe(200);

    await until(
      () => indexValid(w.large.id),
      (valid) => valid === true,
      20_000,
      "the large organization's index",
    );
    await new Promise((r) => setTimeout(r, 1_000)); // more runs of the job: still none for the small one
    expect(await indexValid(w.small.id)).toBeNull();

    const large = await until(
      () => api(w.largeToken, 'POST', '/knowledge-base/search', { query: 'return a gift', k: 5 }),
      (r) => r.body?.count === 3,
      15_000,
      'all three entries embedded and found',
    );
    expect(large.status).toBe(200);
    expect(large.body.data[0].question).toBe('Can I return a gift?');
    expect(large.body.data.every((d: { org_id?: string; answer: string }) => d.answer !== 'Never.')).toBe(true);
    const small = await api(w.smallToken, 'POST', '/knowledge-base/search', { query: 'return a gift', k: 5 });
    expect(small.status).toBe(200);
    expect(small.body.data.map((d: { answer: string }) => d.answer)).toEqual(['Never.']);
  });
});
