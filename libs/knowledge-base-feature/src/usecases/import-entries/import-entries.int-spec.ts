import type { ImportItemResult, RequestContext } from '@mapi/contracts';
import { createLogger } from '@mapi/platform';
import { createOrg, newUuid, useTestDatabase } from '@mapi/testing';
import { Writable } from 'node:stream';
import { OfflineHashEmbedder } from '../../embedding/offline-hash-embedder';
import { EmbedEntries } from '../../jobs/embed-entries';
import { derivedId, KbImportRepository, type ImportedEntry } from '../../repositories/kb-import-repository';
import { KbEntryRepository } from '../../repositories/kb-entry-repository';
import { faqJobId, type EmbeddingScheduler } from '../embedding-scheduler';
import { ImportKbEntries } from './import-entries.usecase';

/** A stored entry as the spec reads it back: the imported fields and what the table adds. */
type Row = ImportedEntry & {
  context_id: string;
  org_id: string;
  content_version: number;
  embedding_model: string | null;
  vector: string | null;
};

/**
 * knowledge-base.v1.import.faqs / .documents against Postgres (pgvector). The embedding queue is a
 * stand-in that records each job and runs it at once as the worker would, with the offline embedder.
 */
describe('ImportKbEntries (integration)', () => {
  const t = useTestDatabase('kb_import_entries');
  const w: Record<string, string> = {};
  const jobs: string[] = [];
  const logger = createLogger('kb-import-test', 'silent', new Writable({ write: (_c, _e, done) => done() }));
  const worker = () => new EmbedEntries(new KbEntryRepository(t.prisma), new OfflineHashEmbedder(), logger);
  const queue: EmbeddingScheduler = {
    enqueue: async (org_id, context_ids, jobId) => (jobs.push(jobId), await worker().run({ org_id, context_ids, trace: {} }), jobId),
    waitFor: async () => true,
  };
  const ctx = (org: string): RequestContext => ({ org_id: org, token_id: newUuid(), phone_scope: null, phone: null });
  const run = (type: 'faq' | 'document', org: string, items: unknown[]) =>
    new ImportKbEntries(new KbImportRepository(t.prisma), queue, type).execute({ ctx: ctx(org), body: { items } });
  const outcomes = (r: { results: ImportItemResult[] }) => r.results.map((x) => x.outcome);
  const rows = (where: 'org_id' | 'context_id' | 'document_id', id: string) =>
    t.prisma.$queryRawUnsafe<Row[]>(
      `SELECT context_id::text AS context_id, org_id::text AS org_id, type, question, answer, is_active, tags, metadata, document_id::text AS document_id,
              content_version, embedding_model, embedding::text AS vector FROM knowledge_base_entries WHERE ${where} = $1::uuid ORDER BY question`,
      id,
    );
  const entry = async (id: string) => (await rows('context_id', id))[0];
  const refund = () => ({
    source_id: w.refund,
    question: 'How do refunds work?',
    answer: 'Within 14 days.',
    is_active: true,
    tags: ['billing'],
    metadata: { from: 'hosted' },
  });
  const hours = () => ({ source_id: w.hours, question: 'Opening hours?', answer: '9 to 5.' });

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    [w.refund, w.hours, w.theirs] = [newUuid(), newUuid(), newUuid()];
    await t.prisma.$executeRaw`INSERT INTO knowledge_base_entries (context_id, org_id, type, question, answer, is_active, tags)
      VALUES (${w.theirs}::uuid, ${w.other}::uuid, 'faq', 'Their question', 'Their answer', true, ARRAY['theirs'])`;
  });

  it('makes FAQs at their source ids with text, flags, tags and metadata, each embedded as any new entry', async () => {
    const r = await run('faq', w.org, [refund(), hours()]);
    expect(r.results).toEqual([
      { source_id: w.refund, target_id: w.refund, outcome: 'created' },
      { source_id: w.hours, target_id: w.hours, outcome: 'created' },
    ]);
    expect(await entry(w.refund)).toMatchObject({
      org_id: w.org,
      type: 'faq',
      question: 'How do refunds work?',
      answer: 'Within 14 days.',
      is_active: true,
      tags: ['billing'],
      metadata: { from: 'hosted' },
      document_id: null,
      content_version: 1,
      embedding_model: 'offline-hash-v1',
      vector: expect.stringMatching(/^\[/),
    });
    expect(await entry(w.hours)).toMatchObject({ is_active: false, tags: null, metadata: null, embedding_model: 'offline-hash-v1' });
    expect(jobs).toEqual([faqJobId(w.refund, 1), faqJobId(w.hours, 1)]);
  });

  it('answers the same batch again with skipped, writes nothing and queues nothing', async () => {
    const before = await rows('org_id', w.org);
    const queued = jobs.length;
    expect(outcomes(await run('faq', w.org, [refund(), hours()]))).toEqual(['skipped', 'skipped']);
    expect(await rows('org_id', w.org)).toEqual(before);
    expect(jobs.length).toBe(queued);
  });

  it("updates a changed text as a new version, embedded again; changed flags or tags keep the text's vector", async () => {
    const [vector, oldRefund] = [(await entry(w.hours)).vector, (await entry(w.refund)).vector];
    const r = await run('faq', w.org, [
      { ...refund(), answer: 'Within 30 days.' },
      { ...hours(), is_active: true, tags: ['info'] },
    ]);
    expect(r.results.map((x) => [x.target_id, x.outcome])).toEqual([
      [w.refund, 'updated'],
      [w.hours, 'updated'],
    ]);
    expect(await entry(w.refund)).toMatchObject({
      answer: 'Within 30 days.',
      content_version: 2,
      embedding_model: 'offline-hash-v1',
      vector: expect.stringMatching(/^\[/),
    });
    expect((await entry(w.refund)).vector).not.toBe(oldRefund);
    expect(await entry(w.hours)).toMatchObject({ is_active: true, tags: ['info'], content_version: 1, vector });
    expect(jobs.slice(-1)).toEqual([faqJobId(w.refund, 2)]);
    expect(jobs).not.toContain(faqJobId(w.hours, 2));
  });

  it('gives an id another organization holds a derived one, the same on every run, and never touches theirs', async () => {
    const theirs = await entry(w.theirs);
    const item = { source_id: w.theirs, question: 'Their question', answer: 'Our answer', is_active: true };
    const mine = derivedId(w.org, w.theirs);
    expect((await run('faq', w.org, [item])).results).toEqual([{ source_id: w.theirs, target_id: mine, outcome: 'created' }]);
    expect(await entry(mine)).toMatchObject({ org_id: w.org, answer: 'Our answer' });
    expect((await run('faq', w.org, [item])).results[0]).toEqual({ source_id: w.theirs, target_id: mine, outcome: 'skipped' });
    // a target id naming their entry is not ours either: the same derived id
    expect((await run('faq', w.org, [{ ...item, target_id: w.theirs, answer: 'Changed' }])).results[0]).toEqual({
      source_id: w.theirs,
      target_id: mine,
      outcome: 'updated',
    });
    expect(await entry(w.theirs)).toEqual(theirs);
    expect(jobs).not.toContain(faqJobId(w.theirs, 1));
  });

  it('gives a source id that is not a uuid a derived id, once', async () => {
    const r = await run('faq', w.org, [{ source_id: 'faq-17', question: 'Legacy?', answer: 'Yes.' }]);
    expect(r.results[0]).toEqual({ source_id: 'faq-17', target_id: derivedId(w.org, 'faq-17'), outcome: 'created' });
    expect(outcomes(await run('faq', w.org, [{ source_id: 'faq-17', question: 'Legacy?', answer: 'Yes.' }]))).toEqual(['skipped']);
  });

  it('makes document chunks as document entries of their document, which keeps its id unless another organization has it', async () => {
    const [doc, foreignDoc] = [newUuid(), newUuid()];
    await t.prisma.$executeRaw`INSERT INTO knowledge_base_entries (org_id, type, question, answer, document_id)
      VALUES (${w.other}::uuid, 'document', 'their chunk', 'text', ${foreignDoc}::uuid)`;
    const chunk = (i: number, documentId: string) => ({
      source_id: newUuid(),
      document_id: documentId,
      question: `manual.pdf #${i}`,
      answer: `chunk ${i}`,
      metadata: { chunkIndex: i },
    });
    const r = await run('document', w.org, [chunk(0, doc), chunk(1, doc), chunk(0, foreignDoc)]);
    expect(outcomes(r)).toEqual(['created', 'created', 'created']);
    const kept = await rows('document_id', doc);
    expect(kept.map((x) => [x.org_id, x.type, x.question, x.metadata])).toEqual([
      [w.org, 'document', 'manual.pdf #0', { chunkIndex: 0 }],
      [w.org, 'document', 'manual.pdf #1', { chunkIndex: 1 }],
    ]);
    expect(kept.every((x) => x.embedding_model === 'offline-hash-v1')).toBe(true);
    const moved = await rows('document_id', derivedId(w.org, `document/${foreignDoc}`));
    expect(moved.map((x) => [x.org_id, x.context_id])).toEqual([[w.org, r.results[2].target_id]]);
    expect((await rows('document_id', foreignDoc)).map((x) => x.org_id)).toEqual([w.other]);
  });

  it('fails an item without a source id, question or answer with why, while the rest of the batch lands', async () => {
    const [good, noQuestion, badAnswer, blank] = [newUuid(), newUuid(), newUuid(), newUuid()];
    const r = await run('faq', w.org, [
      { question: 'No source id?', answer: 'no' },
      { source_id: noQuestion, answer: 'no question' },
      { source_id: badAnswer, question: 'Number?', answer: 42 },
      { source_id: blank, question: '   ', answer: 'blank question' },
      'not an object',
      { source_id: good, question: 'Fine?', answer: 'Fine.' },
    ]);
    expect(outcomes(r)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'created']);
    expect(r.results.map((x) => x.source_id)).toEqual(['', noQuestion, badAnswer, blank, '', good]);
    expect(r.results.slice(0, 5).every((x) => x.target_id === null && /source_id, question and answer/.test(x.reason ?? ''))).toBe(true);
    for (const id of [noQuestion, badAnswer, blank]) expect(await entry(id)).toBeUndefined();
    expect(await entry(good)).toMatchObject({ org_id: w.org, question: 'Fine?', answer: 'Fine.' });
  });
});
