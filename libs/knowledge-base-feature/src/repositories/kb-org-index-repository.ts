import { Client } from 'pg';
import { EMBEDDING_DIMENSIONS } from '../rows/embedding-dimensions';

/**
 * Names of an organization's own HNSW index: a prefix and its id without dashes (53 or 52 characters).
 * `halfvec`: the index built now, over `embedding::halfvec(384)` (half the pages, docs/decisions.md,
 * "Knowledge-base search: halfvec graphs per organization"); `vector`: the earlier kind over the full
 * vectors, still searched where it exists and replaced by the job (IndexLargeOrganizations).
 */
export const ORG_INDEX_PREFIXES = { halfvec: 'kb_entries_hnsw_half_', vector: 'kb_entries_hnsw_org_' } as const;
export type OrgIndexKind = keyof typeof ORG_INDEX_PREFIXES;
/** The index built for an organization now (the halfvec kind). */
export const orgIndexName = (orgId: string, kind: OrgIndexKind = 'halfvec') =>
  `${ORG_INDEX_PREFIXES[kind]}${uuid(orgId).replace(/-/g, '')}`;
/** The expression the halfvec indexes are built on; a search must order by exactly this to be planned on them. */
export const HALFVEC_EXPRESSION = `(embedding::halfvec(${EMBEDDING_DIMENSIONS}))`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The id goes into DDL as a literal (an index predicate cannot be a parameter): only a canonical UUID passes. */
function uuid(orgId: string): string {
  const id = orgId.toLowerCase();
  if (!UUID.test(id)) throw new Error(`not a UUID: ${JSON.stringify(orgId)}`);
  return id;
}
/** The kind of an index named by orgIndexName, or null for any other name. */
export const kindOfIndex = (name: string): OrgIndexKind | null =>
  (Object.keys(ORG_INDEX_PREFIXES) as OrgIndexKind[]).find(
    (k) => name.startsWith(ORG_INDEX_PREFIXES[k]) && /^[0-9a-f]{32}$/.test(name.slice(ORG_INDEX_PREFIXES[k].length)),
  ) ?? null;
/** The organization of an index named by orgIndexName. */
export const orgOfIndex = (name: string) => {
  const kind = kindOfIndex(name);
  const h = kind ? name.slice(ORG_INDEX_PREFIXES[kind].length) : '';
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** One existing per-organization index. `building`: a CREATE INDEX CONCURRENTLY of it is under way. */
export interface OrgIndex {
  orgId: string;
  name: string;
  kind: OrgIndexKind;
  valid: boolean;
  building: boolean;
}

/** Any number, so two jobs (replicas) never build at once; the key is this job's alone (pg_try_advisory_lock). */
export const ORG_INDEX_LOCK_KEY = 0x6b62_6978; // 'kbix'

/**
 * The per-organization partial HNSW indexes of knowledge_base_entries (docs/services/knowledge-base.md,
 * "Search"): `USING hnsw ((embedding::halfvec(384)) halfvec_cosine_ops) WHERE org_id = '<id>'::uuid`, the
 * migration's global index restricted to one organization and stored in half precision (earlier ones:
 * `(embedding vector_cosine_ops)`, kind `vector`, listed and dropped here, no longer built). DDL needs one session of its own (CREATE
 * INDEX CONCURRENTLY runs outside any transaction and the job's lock is a session lock), so this is a
 * pg connection of its own to the direct URL, not the pooled Prisma client. The only knowledge-base
 * code that reads across organizations, and it reads ids and counts only.
 */
export class KbOrgIndexRepository {
  constructor(private readonly url: string) {}

  /** Runs `fn` on a session holding the job's lock; null without running it if another session holds it. */
  async withLock<T>(fn: (session: KbOrgIndexSession) => Promise<T>): Promise<T | null> {
    const client = new Client({ connectionString: this.url, application_name: 'mapi-kb-org-index' });
    client.on('error', () => undefined); // a dropped connection fails the statement under way; nothing else listens
    await client.connect();
    try {
      const [{ locked }] = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [ORG_INDEX_LOCK_KEY]))
        .rows;
      if (!locked) return null;
      return await fn(new KbOrgIndexSession(client));
    } finally {
      await client.end().catch(() => undefined); // ends the session: the lock goes with it
    }
  }
}

export class KbOrgIndexSession {
  constructor(private readonly client: Client) {}

  /** Organizations with at least `min` entries (an index-only count over the org_id-led btree). */
  async orgSizes(min: number): Promise<Map<string, number>> {
    const rows = (
      await this.client.query<{ org_id: string; n: number }>(
        'SELECT org_id::text AS org_id, count(*)::int AS n FROM knowledge_base_entries GROUP BY org_id HAVING count(*) >= $1',
        [min],
      )
    ).rows;
    return new Map(rows.map((r) => [r.org_id, r.n]));
  }

  async count(orgId: string): Promise<number> {
    const rows = (
      await this.client.query<{ n: number }>('SELECT count(*)::int AS n FROM knowledge_base_entries WHERE org_id = $1::uuid', [uuid(orgId)])
    ).rows;
    return rows[0]?.n ?? 0;
  }

  /** The per-organization indexes that exist, valid or not, and whether one is being built now. */
  async list(): Promise<OrgIndex[]> {
    const rows = (
      await this.client.query<{ name: string; valid: boolean; building: boolean }>(
        `SELECT c.relname AS name, i.indisvalid AS valid,
                EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = c.oid) AS building
           FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE i.indrelid = 'knowledge_base_entries'::regclass AND (starts_with(c.relname, $1) OR starts_with(c.relname, $2))`,
        [ORG_INDEX_PREFIXES.halfvec, ORG_INDEX_PREFIXES.vector],
      )
    ).rows;
    return rows.flatMap((r) => {
      const kind = kindOfIndex(r.name);
      return kind ? [{ orgId: orgOfIndex(r.name), kind, ...r }] : [];
    });
  }

  /**
   * Builds the organization's (halfvec) index without blocking writes (CONCURRENTLY: two table scans,
   * waits for transactions under way). `maintenanceWorkMem` for this session only: the graph of 100,000
   * 384-d halfvecs is ≈ 110 MB and builds several times slower when it does not fit.
   */
  async create(orgId: string, maintenanceWorkMem: string): Promise<string> {
    const name = orgIndexName(orgId);
    await this.client.query('SELECT set_config($1, $2, false)', ['maintenance_work_mem', maintenanceWorkMem]);
    await this.client.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "${name}" ON knowledge_base_entries USING hnsw (${HALFVEC_EXPRESSION} halfvec_cosine_ops) WHERE org_id = '${uuid(orgId)}'::uuid`,
    );
    return name;
  }

  async drop(name: string): Promise<void> {
    if (!kindOfIndex(name)) throw new Error(`not an organization index: ${name}`);
    await this.client.query(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
  }
}
