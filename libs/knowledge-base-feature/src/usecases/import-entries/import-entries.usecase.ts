import type { ImportBatchResponse, ImportItemResult, ImportKbRequest } from '@mapi/contracts';
import type { KbImportRepository, ImportedEntry } from '../../repositories/kb-import-repository';
import { faqJobId, type EmbeddingScheduler } from '../embedding-scheduler';

const text = (v: unknown, max: number): string | null => (typeof v === 'string' && v.trim() && v.length <= max ? v : null);

/**
 * knowledge-base.v1.import.faqs / .documents (the importer): entries with their text, flags and
 * tags, kept at the source's context_id when this organization can have it (else an id derived from
 * it, the same on every run); a new or changed text is queued for embedding as any entry's.
 */
export class ImportKbEntries {
  constructor(
    private readonly entries: KbImportRepository,
    private readonly embeddings: EmbeddingScheduler,
    private readonly type: 'faq' | 'document',
  ) {}

  async execute({ ctx, body }: ImportKbRequest): Promise<ImportBatchResponse> {
    const results: ImportItemResult[] = [];
    for (const raw of body.items) {
      const item = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
      const sourceId = typeof item.source_id === 'string' ? item.source_id : '';
      const question = text(item.question, 10_000);
      const answer = text(item.answer, 100_000);
      if (!sourceId || question === null || answer === null) {
        results.push({ source_id: sourceId, target_id: null, outcome: 'failed', reason: 'an entry needs source_id, question and answer' });
        continue;
      }
      const entry: ImportedEntry = {
        type: this.type,
        question,
        answer,
        is_active: item.is_active === true,
        tags: Array.isArray(item.tags) ? item.tags.filter((t): t is string => typeof t === 'string') : null,
        metadata: item.metadata ?? null,
        document_id:
          this.type === 'document'
            ? await this.entries.documentIdFor(ctx.org_id, typeof item.document_id === 'string' ? item.document_id : null)
            : null,
      };
      const id = await this.entries.idFor(ctx.org_id, sourceId, typeof item.target_id === 'string' ? item.target_id : undefined);
      const before = await this.entries.find(ctx.org_id, id);
      let version: number;
      let outcome: ImportItemResult['outcome'];
      if (!before) {
        version = await this.entries.insert(ctx.org_id, id, entry);
        outcome = 'created';
      } else if (
        before.question === entry.question &&
        before.answer === entry.answer &&
        before.is_active === entry.is_active &&
        JSON.stringify(before.tags) === JSON.stringify(entry.tags)
      ) {
        results.push({ source_id: sourceId, target_id: id, outcome: 'skipped' });
        continue;
      } else {
        version = await this.entries.update(ctx.org_id, id, entry);
        outcome = 'updated';
      }
      if (!before || version !== before.content_version) await this.embeddings.enqueue(ctx.org_id, [id], faqJobId(id, version));
      results.push({ source_id: sourceId, target_id: id, outcome });
    }
    return { results };
  }
}
