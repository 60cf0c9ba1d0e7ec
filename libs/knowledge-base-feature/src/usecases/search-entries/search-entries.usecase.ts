import type { SearchKbRequest, SearchKbResponse } from '@mapi/contracts';
import { toVectorLiteral, type EmbeddingProvider } from '../../embedding/embedding-provider';
import type { KbEntryRepository } from '../../repositories/kb-entry-repository';
import { mapKbEntry } from '../../entries/map-kb-entry';

/**
 * POST /knowledge-base/search: embeds the query with the configured provider and answers the k
 * nearest entries by cosine similarity (score = 1 - cosine distance), best first. What the agent
 * retrieves, so a customer can test what theirs will answer.
 */
export class SearchKbEntries {
  constructor(
    private readonly entries: KbEntryRepository,
    private readonly provider: EmbeddingProvider,
  ) {}

  async execute({ ctx, body }: SearchKbRequest): Promise<SearchKbResponse> {
    const [vector] = await this.provider.embed([body.query]);
    const rows = await this.entries.search(ctx.org_id, toVectorLiteral(vector), body.k, { type: body.type, isActive: body.is_active });
    const data = rows.map((row) => ({ ...mapKbEntry(row), score: Math.round((1 - Number(row.distance)) * 1e6) / 1e6 }));
    return { data, count: data.length };
  }
}
