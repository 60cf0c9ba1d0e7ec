import { Errors, type CreateFaqRequest, type KbEntry } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import type { AttachmentStore } from '../../attachments/attachment-store';
import type { KbEntryRepository } from '../../repositories/kb-entry-repository';
import { mapKbEntry } from '../../entries/map-kb-entry';
import { faqJobId, type EmbeddingScheduler } from '../embedding-scheduler';
import { buildAttachments } from '../faq-attachments';

/**
 * POST /knowledge-base/faq/create (spec 4.2): stores the FAQ (inactive unless is_active is true),
 * enqueues its embedding and waits up to `waitMs` for the worker; the answer then has the vector,
 * or `embedding: null` while the worker is still busy (it is filled within seconds).
 */
export class CreateFaq {
  constructor(
    private readonly entries: KbEntryRepository,
    private readonly store: AttachmentStore,
    private readonly maxAttachmentBytes: number,
    private readonly embeddings: EmbeddingScheduler,
    private readonly waitMs: number,
    private readonly logger: Logger,
  ) {}

  async execute({ ctx, body }: CreateFaqRequest): Promise<KbEntry> {
    const attachments = await buildAttachments(this.store, this.maxAttachmentBytes, ctx.org_id, body.attachment, body.attachments);
    const [row] = await this.entries.insertMany(ctx.org_id, [
      {
        type: 'faq',
        question: body.question,
        answer: body.answer,
        is_active: body.is_active,
        attachments,
        document_id: null,
        metadata: null,
      },
    ]);
    const jobId = faqJobId(row.context_id, row.content_version);
    try {
      await this.embeddings.enqueue(ctx.org_id, [row.context_id], jobId);
    } catch (error) {
      // Without its job the entry would never be embedded: undo the create and say so.
      this.logger.error({ err: error, context_id: row.context_id }, 'embedding queue unavailable; FAQ not created');
      await this.entries.deleteOfType(ctx.org_id, row.context_id, 'faq');
      await this.store.removeLinks(
        ctx.org_id,
        attachments.map((a) => a.link),
      );
      throw Errors.unavailable('The embedding queue is unavailable; the FAQ was not created');
    }
    if (!(await this.embeddings.waitFor(jobId, this.waitMs))) return mapKbEntry(row);
    return mapKbEntry((await this.entries.findById(ctx.org_id, row.context_id)) ?? row);
  }
}
