import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Queue, Worker } from 'bullmq';
import { bullConnection, createLogger, bullPrefix } from '@mapi/platform';
import { randomSuffix, testEnv, useTestDatabase } from '@mapi/testing';
import { OfflineHashEmbedder } from '../embedding/offline-hash-embedder';
import { EmbedEntries } from '../jobs/embed-entries';
import { EMBEDDING_QUEUE, type EmbeddingJobData } from '../jobs/embedding-queue';
import { KbEntryRepository } from '../repositories/kb-entry-repository';
import { EmbeddingBacklog } from './embedding-backlog';

/** The embedding backlog against real Redis (BullMQ's own counts) and Postgres (pending rows). */
describe('EmbeddingBacklog (integration)', () => {
  const t = useTestDatabase('kb_backlog');
  const namespace = `kbbacklog${randomSuffix(3)}`;
  const logger = createLogger('kb-backlog-test', 'info', new Writable({ write: (_c, _e, done) => done() }));
  const org = randomUUID();
  let queue: Queue<EmbeddingJobData>;
  let entries: KbEntryRepository;
  let backlog: EmbeddingBacklog;
  let worker: Worker<EmbeddingJobData> | undefined;

  beforeAll(async () => {
    queue = new Queue<EmbeddingJobData>(EMBEDDING_QUEUE, {
      connection: bullConnection(testEnv.redisUrl()),
      prefix: bullPrefix(namespace),
    });
    entries = new KbEntryRepository(t.prisma);
    backlog = new EmbeddingBacklog(queue, t.prisma, 0);
  });

  afterAll(async () => {
    await worker?.close(true);
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  });

  const faqs = (n: number) =>
    entries.insertMany(
      org,
      Array.from({ length: n }, (_, i) => ({
        type: 'faq' as const,
        question: `q${i}?`,
        answer: `a${i}`,
        is_active: true,
        attachments: null,
        document_id: null,
        metadata: null,
      })),
    );

  it('is zero for an empty queue and table', async () => {
    expect(await backlog.read()).toEqual({ waiting: 0, delayed: 0, active: 0, failed: 0, pending_entries: 0 });
  });

  it('counts jobs by state as BullMQ does, and the entries still unembedded, down to zero as a worker embeds them', async () => {
    const rows = await faqs(5);
    const ids = rows.map((r) => r.context_id);
    await queue.add('embed', { org_id: org, context_ids: ids.slice(0, 2), trace: {} }, { jobId: 'a' });
    await queue.add('embed', { org_id: org, context_ids: ids.slice(2, 4), trace: {} }, { jobId: 'b' });
    await queue.add('embed', { org_id: org, context_ids: ids.slice(4), trace: {} }, { jobId: 'c', delay: 3_600_000 });
    await queue.add('embed', { org_id: org, context_ids: [], trace: {} }, { jobId: 'prio', priority: 5 });
    expect(await backlog.read()).toEqual({ waiting: 3, delayed: 1, active: 0, failed: 0, pending_entries: 5 });
    await queue.remove('prio');

    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const embed = new EmbedEntries(entries, new OfflineHashEmbedder(), logger);
    worker = new Worker<EmbeddingJobData>(
      EMBEDDING_QUEUE,
      async (job) => {
        if (job.id === 'a') await held;
        if (job.id === 'b') throw new Error('provider down');
        return embed.run(job.data);
      },
      { connection: bullConnection(testEnv.redisUrl()), prefix: bullPrefix(namespace), concurrency: 1 },
    );
    const until = async (want: Partial<Awaited<ReturnType<EmbeddingBacklog['read']>>>) => {
      const deadline = Date.now() + 10_000;
      for (let b = await backlog.read(); !Object.entries(want).every(([k, v]) => b[k as keyof typeof b] === v); b = await backlog.read()) {
        if (Date.now() > deadline) throw new Error(`backlog stayed at ${JSON.stringify(b)}, wanted ${JSON.stringify(want)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until({ active: 1, waiting: 1 });
    release();
    await until({ active: 0, waiting: 0, failed: 1, delayed: 1, pending_entries: 3 }); // a's 2 entries embedded; b failed for good
  });

  it('fails (no made-up figure) when Redis is unreachable', async () => {
    const broken = new Queue(EMBEDDING_QUEUE, {
      connection: { host: '127.0.0.1', port: 1, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null },
    });
    broken.on('error', () => undefined);
    await expect(new EmbeddingBacklog(broken, t.prisma, 0).read()).rejects.toThrow();
    await broken.close().catch(() => undefined);
  });
});
