import type { Logger } from '@mapi/platform';
import { embeddingText, toVectorLiteral, type EmbeddingProvider } from '../embedding/embedding-provider';
import type { KbEntryRepository } from '../repositories/kb-entry-repository';
import type { EmbeddingJobData } from './embedding-queue';

/**
 * Runs one embedding job: reads the entries' current text (deleted entries are skipped), embeds it
 * in one provider call (the provider batches), and stores each vector only if the text was not
 * changed meanwhile (a newer job then embeds the newer text). Provider failures throw, so BullMQ retries.
 */
export class EmbedEntries {
  constructor(
    private readonly entries: KbEntryRepository,
    private readonly provider: EmbeddingProvider,
    private readonly logger: Logger,
  ) {}

  async run(data: EmbeddingJobData): Promise<{ embedded: number; skipped: number }> {
    const rows = await this.entries.loadForEmbedding(data.org_id, data.context_ids);
    if (rows.length === 0) return { embedded: 0, skipped: data.context_ids.length };
    const vectors = await this.provider.embed(rows.map(embeddingText));
    let embedded = 0;
    for (let i = 0; i < rows.length; i++) {
      const saved = await this.entries.saveEmbedding(
        data.org_id,
        rows[i].context_id,
        rows[i].content_version,
        toVectorLiteral(vectors[i]),
        this.provider.model,
      );
      if (saved) embedded++;
    }
    const skipped = data.context_ids.length - embedded;
    this.logger.debug({ org_id: data.org_id, embedded, skipped }, 'entries embedded');
    return { embedded, skipped };
  }
}
