import { Client } from 'pg';

/** Name of an organization's own HNSW index: the prefix and its id without dashes (52 characters). */
export const ORG_INDEX_PREFIX = 'kb_entries_hnsw_org_';
export const orgIndexName = (orgId: string) => `${ORG_INDEX_PREFIX}${uuid(orgId).replace(/-/g, '')}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The id goes into DDL as a literal (an index predicate cannot be a parameter): only a canonical UUID passes. */
function uuid(orgId: string): string {
  const id = orgId.toLowerCase();
  if (!UUID.test(id)) throw new Error(`not a UUID: ${JSON.stringify(orgId)}`);
  return id;
}
/** The organization of an index named by orgIndexName. */
export const orgOfIndex = (name: string) => {
  const h = name.slice(ORG_INDEX_PREFIX.length);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** One existing per-organization index. `building`: a CREATE INDEX CONCURRENTLY of it is under way. */
export interface OrgIndex {
  orgId: string;
  name: string;
  valid: boolean;
  building: boolean;
}

/** Any number, so two jobs (replicas) never build at once; the key is this job's alone (pg_try_advisory_lock). */
export const ORG_INDEX_LOCK_KEY = 0x6b62_6978; // 'kbix'

/**
 * The per-organization partial HNSW indexes of knowledge_base_entries (docs/services/knowledge-base.md,
 * "Search"): `USING hnsw (embedding vector_cosine_ops) WHERE org_id = '<id>'::uuid`, the migration's
 * global index definition restricted to one organization. DDL needs one session of its own (CREATE
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
      const [{ locked }] = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [ORG_INDEX_LOCK_KEY])).rows;
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
    const rows = (await this.client.query<{ n: number }>('SELECT count(*)::int AS n FROM knowledge_base_entries WHERE org_id = $1::uuid', [uuid(orgId)])).rows;
    return rows[0]?.n ?? 0;
  }

  /** The per-organization indexes that exist, valid or not, and whether one is being built now. */
  async list(): Promise<OrgIndex[]> {
    const rows = (
      await this.client.query<{ name: string; valid: boolean; building: boolean }>(
        `SELECT c.relname AS name, i.indisvalid AS valid,
                EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = c.oid) AS building
           FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE i.indrelid = 'knowledge_base_entries'::regclass AND c.relname LIKE $1`,
        [`${ORG_INDEX_PREFIX}%`],
      )
    ).rows;
    return rows.map((r) => ({ orgId: orgOfIndex(r.name), ...r }));
  }

  /**
   * Builds the organization's index without blocking writes (CONCURRENTLY: two table scans, waits for
   * transactions under way). `maintenanceWorkMem` for this session only: the graph of 100,000 384-d
   * vectors is ≈ 200 MB and builds several times slower when it does not fit.
   */
  async create(orgId: string, maintenanceWorkMem: string): Promise<string> {
    const name = orgIndexName(orgId);
    await this.client.query('SELECT set_config($1, $2, false)', ['maintenance_work_mem', maintenanceWorkMem]);
    await this.client.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "${name}" ON knowledge_base_entries USING hnsw (embedding vector_cosine_ops) WHERE org_id = '${uuid(orgId)}'::uuid`,
    );
    return name;
  }

  async drop(name: string): Promise<void> {
    if (!name.startsWith(ORG_INDEX_PREFIX) || !/^[a-z0-9_]+$/.test(name)) throw new Error(`not an organization index: ${name}`);
    await this.client.query(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
  }
}
