import type { PrismaClient } from '@mapi/db';
import { ORG_INDEX_PREFIX, orgOfIndex } from './kb-org-index-repository';

/**
 * Which organizations have a valid HNSW index of their own (IndexLargeOrganizations), as last read from
 * the catalog: a search asks it in memory to pick its hnsw.ef_search (KB_SEARCH_EF_SEARCH_OWN_INDEX). Read
 * again every half minute by the service: for that long a new index is walked with the global ef_search,
 * or a dropped one's organization with its own — slower or less exact for a while, never wrong.
 */
export class KbOrgIndexDirectory {
  private orgs = new Set<string>();

  constructor(private readonly prisma: PrismaClient) {}

  has(orgId: string): boolean {
    return this.orgs.has(orgId);
  }

  async refresh(): Promise<void> {
    const rows = await this.prisma.$queryRaw<Array<{ name: string }>>`
      SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = 'knowledge_base_entries'::regclass AND i.indisvalid AND c.relname LIKE ${`${ORG_INDEX_PREFIX}%`}`;
    this.orgs = new Set(rows.map((r) => orgOfIndex(r.name)));
  }
}
