import type { SearchKbRequest, SearchKbResponse } from '@mapi/contracts';
import { toVectorLiteral, type EmbeddingProvider } from '../../embedding/embedding-provider';
import type { KbEntryRepository } from '../../repositories/kb-entry-repository';
import type { KbOrgIndexDirectory } from '../../repositories/kb-org-index-directory';

/**
 * Searches of organizations with an index of their own (KbOrgIndexDirectory): a repository whose
 * connections walk with their own hnsw.ef_search (KB_SEARCH_EF_SEARCH_OWN_INDEX): an unfiltered walk of
 * one organization's graph reaches the recall of the filtered global walk with far fewer candidates. The
 * statement follows the index's kind (a halfvec index is walked by the halfvec expression).
 */
export interface OwnIndexSearch {
  entries: KbEntryRepository;
  directory: Pick<KbOrgIndexDirectory, 'kind'>;
}
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
    private readonly ownIndex?: OwnIndexSearch,
  ) {}

  async execute({ ctx, body }: SearchKbRequest): Promise<SearchKbResponse> {
    const [vector] = await this.provider.embed([body.query]);
    const own = this.ownIndex?.directory.kind(ctx.org_id);
    const entries = own && this.ownIndex ? this.ownIndex.entries : this.entries;
    const rows = await entries.search(
      ctx.org_id,
      toVectorLiteral(vector),
      body.k,
      { type: body.type, isActive: body.is_active },
      own ?? 'vector',
    );
    const data = rows.map((row) => ({ ...mapKbEntry(row), score: Math.round((1 - Number(row.distance)) * 1e6) / 1e6 }));
    return { data, count: data.length };
  }
}
