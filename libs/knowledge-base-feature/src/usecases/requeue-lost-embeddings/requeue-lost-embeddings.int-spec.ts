import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Queue, Worker } from 'bullmq';
import { bullConnection, createLogger, bullPrefix } from '@mapi/platform';
import { randomSuffix, testEnv, useTestDatabase } from '@mapi/testing';
import { OfflineHashEmbedder } from '../../embedding/offline-hash-embedder';
import { KbEntryRepository } from '../../repositories/kb-entry-repository';
import { EmbedEntries } from '../../jobs/embed-entries';
import { EMBEDDING_QUEUE, EmbeddingQueue, type EmbeddingJobData } from '../../jobs/embedding-queue';
import { CHUNKS_PER_JOB, documentJobId, faqJobId } from '../embedding-scheduler';
import { RequeueLostEmbeddings } from './requeue-lost-embeddings.usecase';

/**
 * The lost-job sweep against real Postgres (pgvector) and Redis (BullMQ): a pending entry whose job
 * was removed gets it back under the same id, twice-run and live jobs add nothing, and a worker then
 * embeds the entry.
 */
describe('RequeueLostEmbeddings (integration)', () => {
  const t = useTestDatabase('kb_sweep');
  const namespace = `kbsweep${randomSuffix(3)}`;
  const logger = createLogger('kb-sweep-test', 'info', new Writable({ write: (_c, _e, done) => done() }));
  let entries: KbEntryRepository;
  let queue: EmbeddingQueue;
  let raw: Queue<EmbeddingJobData>;
  let sweep: RequeueLostEmbeddings;
  const orgA = randomUUID();
  const orgB = randomUUID();

  beforeAll(async () => {
    entries = new KbEntryRepository(t.prisma);
    queue = new EmbeddingQueue({ redisUrl: testEnv.redisUrl(), namespace, attempts: 2 });
    await queue.ready();
    raw = new Queue<EmbeddingJobData>(EMBEDDING_QUEUE, { connection: bullConnection(testEnv.redisUrl()), prefix: bullPrefix(namespace) });
    sweep = new RequeueLostEmbeddings(entries, queue, { afterMs: 60_000, batch: 100 }, logger);
  });

  afterAll(async () => {
    await raw?.obliterate({ force: true }).catch(() => undefined);
    await raw?.close();
    await queue?.close();
  });

  const faq = async (orgId: string, question: string, ageMs: number) => {
    const [row] = await entries.insertMany(orgId, [
      { type: 'faq', question, answer: `${question} answer`, is_active: true, attachments: null, document_id: null, metadata: null },
    ]);
    await t.prisma
      .$executeRaw`UPDATE knowledge_base_entries SET created_at = now() - make_interval(secs => ${ageMs / 1000}) WHERE context_id = ${row.context_id}::uuid`;
    return row;
  };
  const jobIds = async () =>
    (await raw.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized'])).map((j) => j.id).sort();

  it('re-enqueues a stale pending entry whose job is gone, under the same id; a second run adds nothing', async () => {
    const lost = await faq(orgA, 'Lost job?', 120_000);
    const fresh = await faq(orgA, 'Fresh?', 1_000); // pending, but not for long: its job may still be on its way
    const id = faqJobId(lost.context_id, lost.content_version);
    await queue.enqueue(orgA, [lost.context_id], id);
    await raw.remove(id); // the job is dropped (as when Redis is flushed)
    expect(await queue.jobState(id)).toBe('missing');

    expect(await sweep.run()).toMatchObject({ requeued: 1 });
    expect(await queue.jobState(id)).toBe('live');
    const job = await raw.getJob(id);
    expect(job?.data).toMatchObject({ org_id: orgA, context_ids: [lost.context_id] });
    expect(await jobIds()).not.toContain(faqJobId(fresh.context_id, 1));

    const before = await jobIds();
    expect(await sweep.run()).toMatchObject({ requeued: 0 });
    expect(await jobIds()).toEqual(before);
  });

  it('groups document chunks by their batch job and leaves failed jobs to the operator', async () => {
    const documentId = randomUUID();
    const rows = await entries.insertMany(
      orgB,
      Array.from({ length: CHUNKS_PER_JOB + 2 }, (_, i) => ({
        type: 'document' as const,
        question: `h${i}`,
        answer: `chunk ${i}`,
        is_active: false,
        attachments: null,
        document_id: documentId,
        metadata: { fileName: 'f.md', filePath: 'x', chunkIndex: i, tokenCount: 1, source: 'text' },
      })),
    );
    await t.prisma
      .$executeRaw`UPDATE knowledge_base_entries SET created_at = now() - interval '1 hour' WHERE document_id = ${documentId}::uuid`;
    await raw.add('embed', { org_id: orgB, context_ids: [], trace: {} }, { jobId: documentJobId(documentId, 0) }); // batch 0 still queued
    const result = await sweep.run();
    expect(result.requeued).toBeGreaterThanOrEqual(1);
    const second = await raw.getJob(documentJobId(documentId, 1));
    expect(second?.data.context_ids.sort()).toEqual(
      rows
        .slice(CHUNKS_PER_JOB)
        .map((r) => r.context_id)
        .sort(),
    );
    expect((await raw.getJob(documentJobId(documentId, 0)))?.data.context_ids).toEqual([]); // the live job is left alone

    // A job whose attempts are used up: failed, kept by BullMQ (removeOnFail 7 days), not re-added.
    const failedRow = await faq(orgB, 'Failing?', 120_000);
    const failedId = faqJobId(failedRow.context_id, 1);
    await raw.add('embed', { org_id: orgB, context_ids: [failedRow.context_id], trace: {} }, { jobId: failedId, attempts: 1 });
    const failing = new Worker<EmbeddingJobData>(
      EMBEDDING_QUEUE,
      async (job) => {
        if (job.id === failedId) throw new Error('provider down');
      },
      { connection: bullConnection(testEnv.redisUrl()), prefix: bullPrefix(namespace) },
    );
    try {
      for (let i = 0; i < 100 && (await queue.jobState(failedId)) !== 'failed'; i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await failing.close();
    }
    expect(await queue.jobState(failedId)).toBe('failed');
    expect((await sweep.run()).failed).toBeGreaterThanOrEqual(1);
    expect(await queue.jobState(failedId)).toBe('failed');
  });

  it('replaces a completed job whose entry is still pending, and a worker then embeds the entry', async () => {
    const row = await faq(orgA, 'Where is the shop?', 120_000);
    const id = faqJobId(row.context_id, row.content_version);
    await raw.add('embed', { org_id: orgA, context_ids: [], trace: {} }, { jobId: id }); // a job that did nothing for it
    const worker = new Worker<EmbeddingJobData>(
      EMBEDDING_QUEUE,
      (job) => new EmbedEntries(entries, new OfflineHashEmbedder(), logger).run(job.data),
      {
        connection: bullConnection(testEnv.redisUrl()),
        prefix: bullPrefix(namespace),
      },
    );
    try {
      await expect(queue.waitFor(id, 10_000)).resolves.toBe(true);
      expect((await entries.findById(orgA, row.context_id))?.embedding).toBeNull();
      expect(await queue.jobState(id)).toBe('completed');

      expect((await sweep.run()).requeued).toBeGreaterThanOrEqual(1);
      for (let i = 0; i < 100 && !(await entries.findById(orgA, row.context_id))?.embedding; i++)
        await new Promise((r) => setTimeout(r, 100));
      const embedded = await entries.findById(orgA, row.context_id);
      expect(JSON.parse(embedded!.embedding!)).toHaveLength(384);
    } finally {
      await worker.close();
    }
  });
});
