import type { PrismaClient } from '@mapi/db';
import { ORG_INDEX_PREFIXES, kindOfIndex, orgOfIndex, type OrgIndexKind } from './kb-org-index-repository';

/**
 * Which organizations have a valid HNSW index of their own (IndexLargeOrganizations), and of which kind,
 * as last read from the catalog: a search asks it in memory to pick its statement (a halfvec index is only
 * walked by a search ordered by the halfvec expression) and its hnsw.ef_search (KB_SEARCH_EF_SEARCH_OWN_INDEX).
 * An organization with both kinds (while the job replaces a `vector` index) is searched on the halfvec one.
 * Read again every half minute by the service: for that long a new index is walked with the global
 * statement and ef_search, and a dropped one's organization (one that shrank below half the threshold, a
 * few thousand entries) is scanned exactly — slower or less exact for a while, never wrong.
 */
export class KbOrgIndexDirectory {
  private orgs = new Map<string, OrgIndexKind>();

  constructor(private readonly prisma: PrismaClient) {}

  has(orgId: string): boolean {
    return this.orgs.has(orgId);
  }

  /** The kind of the organization's own index, undefined when it has none (the global index serves it). */
  kind(orgId: string): OrgIndexKind | undefined {
    return this.orgs.get(orgId);
  }

  async refresh(): Promise<void> {
    const rows = await this.prisma.$queryRaw<Array<{ name: string }>>`
      SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = 'knowledge_base_entries'::regclass AND i.indisvalid
         AND (starts_with(c.relname, ${ORG_INDEX_PREFIXES.halfvec}) OR starts_with(c.relname, ${ORG_INDEX_PREFIXES.vector}))`;
    const orgs = new Map<string, OrgIndexKind>();
    for (const { name } of rows) {
      const kind = kindOfIndex(name);
      if (kind && orgs.get(orgOfIndex(name)) !== 'halfvec') orgs.set(orgOfIndex(name), kind);
    }
    this.orgs = orgs;
  }
}
