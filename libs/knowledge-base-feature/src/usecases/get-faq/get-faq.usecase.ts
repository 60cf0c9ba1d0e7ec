import type { GetFaqRequest, KbEntry } from '@mapi/contracts';
import type { KbEntryRepository } from '../../repositories/kb-entry-repository';
import { mapKbEntry } from '../../entries/map-kb-entry';
import { requireType } from '../faq-entry';

/** GET /knowledge-base/faq/{context_id}: an FAQ or self-learned entry of the organization. */
export class GetFaq {
  constructor(private readonly entries: KbEntryRepository) {}

  async execute({ ctx, params }: GetFaqRequest): Promise<KbEntry> {
    const row = await this.entries.findById(ctx.org_id, params.context_id);
    return mapKbEntry(requireType(row, params.context_id, ['faq', 'self-learned']));
  }
}
