import type { DeleteFaqRequest, DeleteFaqResponse } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import type { AttachmentStore } from '../../attachments/attachment-store';
import type { KbEntryRepository } from '../../repositories/kb-entry-repository';
import { faqNotFound, requireType } from '../faq-entry';

/**
 * DELETE /knowledge-base/faq/{context_id} (spec 4.3): removes an FAQ permanently (and the files it
 * stored). Only type faq: a self-learned entry or a document chunk is refused with 422.
 */
export class DeleteFaq {
  constructor(
    private readonly entries: KbEntryRepository,
    private readonly store: AttachmentStore,
    private readonly logger: Logger,
  ) {}

  async execute({ ctx, params }: DeleteFaqRequest): Promise<DeleteFaqResponse> {
    const deleted = await this.entries.deleteOfType(ctx.org_id, params.context_id, 'faq');
    if (!deleted) {
      // Nothing deleted: say why (unknown, other organization, or another type); an FAQ found now
      // was deleted by a concurrent request between the two statements: it is gone, so a 404.
      requireType(await this.entries.findById(ctx.org_id, params.context_id), params.context_id, ['faq']);
      throw faqNotFound(params.context_id);
    }
    await this.store
      .removeLinks(
        ctx.org_id,
        (deleted.attachments ?? []).map((a) => a.link),
      )
      .catch((err) => this.logger.warn({ err, context_id: params.context_id }, 'could not remove stored attachments'));
    return { context_id: deleted.context_id };
  }
}
