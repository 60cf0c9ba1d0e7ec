import { Errors, type KbEntry, type UpdateFaqRequest } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import type { AttachmentStore } from '../../attachments/attachment-store';
import type { EntryChanges, KbEntryRepository } from '../../repositories/kb-entry-repository';
import { mapKbEntry } from '../../entries/map-kb-entry';
import { faqJobId, type EmbeddingScheduler } from '../embedding-scheduler';
import { buildAttachments } from '../faq-attachments';
import { requireType } from '../faq-entry';

/**
 * PATCH /knowledge-base/faq/{context_id}: changes question, answer, is_active, attachments of an FAQ
 * or a self-learned entry (is_active true is how a self-learned entry is approved). A changed
 * question or answer clears the old vector and enqueues a new embedding (same wait as on create).
 */
export class UpdateFaq {
  constructor(
    private readonly entries: KbEntryRepository,
    private readonly store: AttachmentStore,
    private readonly maxAttachmentBytes: number,
    private readonly embeddings: EmbeddingScheduler,
    private readonly waitMs: number,
    private readonly logger: Logger,
  ) {}

  async execute({ ctx, params, body }: UpdateFaqRequest): Promise<KbEntry> {
    const current = requireType(await this.entries.findById(ctx.org_id, params.context_id), params.context_id, ['faq', 'self-learned']);
    const changes: EntryChanges = { question: body.question, answer: body.answer, is_active: body.is_active };
    if (body.attachments !== undefined || body.attachment !== undefined) {
      const base = body.attachments === undefined ? (current.attachments ?? []) : [];
      const added = await buildAttachments(this.store, this.maxAttachmentBytes, ctx.org_id, body.attachment, body.attachments);
      changes.attachments = [...base, ...added];
    }
    const row = requireType(await this.entries.update(ctx.org_id, params.context_id, changes), params.context_id, ['faq', 'self-learned']);
    if (body.attachments !== undefined && current.attachments) {
      const kept = new Set((changes.attachments ?? []).map((a) => a.link.url));
      await this.store
        .removeLinks(
          ctx.org_id,
          current.attachments.map((a) => a.link).filter((l) => !kept.has(l.url)),
        )
        .catch(() => undefined);
    }
    // Unchanged text with a vector: nothing to embed. Unchanged text without one (an earlier enqueue failed): embed now.
    if (row.content_version === current.content_version && row.embedding !== null) return mapKbEntry(row);
    const jobId = faqJobId(row.context_id, row.content_version);
    try {
      await this.embeddings.enqueue(ctx.org_id, [row.context_id], jobId);
    } catch (error) {
      this.logger.error({ err: error, context_id: row.context_id }, 'embedding queue unavailable after an update');
      throw Errors.unavailable(
        'The change was saved, but the embedding queue is unavailable: the new embedding is not scheduled; repeat the request',
      );
    }
    if (!(await this.embeddings.waitFor(jobId, this.waitMs))) return mapKbEntry(row);
    return mapKbEntry((await this.entries.findById(ctx.org_id, row.context_id)) ?? row);
  }
}
