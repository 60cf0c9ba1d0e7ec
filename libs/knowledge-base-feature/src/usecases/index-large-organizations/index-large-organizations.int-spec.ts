import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { PrismaClient } from '@mapi/db';
import { useTestDatabase } from '@mapi/testing';
import { createKbPrismaClient } from '../../kb-prisma-client';
import { KbEntryRepository, searchSql } from '../../repositories/kb-entry-repository';
import { KbOrgIndexRepository, ORG_INDEX_LOCK_KEY, orgIndexName, type OrgIndexKind } from '../../repositories/kb-org-index-repository';
import { KbOrgIndexDirectory } from '../../repositories/kb-org-index-directory';
import { IndexLargeOrganizations } from './index-large-organizations.usecase';

/**
 * A large organization gets an HNSW graph of its own (a partial halfvec index WHERE org_id = <id>), and the
 * search statement the service runs for it — parameterized, through its Prisma client — is planned on it:
 * EXPLAIN of the repository's own statement, and the index's scan counter. Results stay the
 * organization's alone and right (an entry's own vector finds that entry first). Small organizations
 * keep the global index; a failed build's leftover is dropped and built again; an organization that
 * shrank loses its index; two replicas never build at once; an earlier full-vector index is still
 * searched, then replaced by a halfvec one.
 */
describe('IndexLargeOrganizations: a partial HNSW index per large organization, chosen by the planner', () => {
  const t = useTestDatabase('kb_org_index');
  const [big, big2, small] = [randomUUID(), randomUUID(), randomUUID()];
  const min = 1_500;
  let kbPrisma: PrismaClient;
  let repo: KbEntryRepository;
  let indexing: IndexLargeOrganizations;

  const insert = (org: string, n: number) =>
    t.prisma.$executeRawUnsafe(`
      INSERT INTO knowledge_base_entries (org_id, type, question, answer, is_active, embedding)
      SELECT '${org}'::uuid, 'faq', 'q' || i, 'a', true,
             (SELECT array_agg(random()::real - 0.5) FROM generate_series(1, 384) WHERE i > 0)::vector
        FROM generate_series(1, ${n}) AS i`);
  /** Vectors of existing entries of `org`, used as queries: each must find its own entry first. */
  const ownVectors = (org: string, n: number) =>
    t.prisma.$queryRawUnsafe<Array<{ context_id: string; v: string }>>(
      `SELECT context_id::text AS context_id, embedding::text AS v FROM knowledge_base_entries WHERE org_id = '${org}'::uuid ORDER BY random() LIMIT ${n}`,
    );
  /** The repository's exact statement (searchSql, what KbEntryRepository.search runs), EXPLAINed by the service's client. */
  const planOf = async (org: string, v: string, walk: OrgIndexKind = 'halfvec'): Promise<string> => {
    const sql = searchSql(org, v, 5, {}, walk);
    const rows = await kbPrisma.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(`EXPLAIN ${sql.text}`, ...sql.values);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };
  const orgIndexes = async () =>
    (
      await t.prisma.$queryRawUnsafe<Array<{ name: string }>>(
        `SELECT indexname AS name FROM pg_indexes WHERE starts_with(indexname, 'kb_entries_hnsw_') AND indexname <> 'knowledge_base_entries_embedding_hnsw_idx' ORDER BY 1`,
      )
    ).map((r) => r.name);
  const scans = async (index: string) =>
    Number(
      (
        await t.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
          `SELECT idx_scan AS n FROM pg_stat_user_indexes WHERE indexrelname = $1`,
          index,
        )
      )[0]?.n ?? 0,
    );

  beforeAll(async () => {
    await insert(big, 2_000);
    await insert(big2, 1_600);
    await insert(small, 300);
    await t.prisma.$executeRawUnsafe('ANALYZE knowledge_base_entries');
    kbPrisma = createKbPrismaClient(t.db.url, 2, { efSearch: 100, perTransaction: false });
    repo = new KbEntryRepository(kbPrisma);
    indexing = new IndexLargeOrganizations(new KbOrgIndexRepository(t.db.url), { minEntries: min, maintenanceWorkMem: '64MB' });
  }, 120_000);

  afterAll(async () => {
    await kbPrisma?.$disconnect();
  });

  it('builds one index per run, the largest organization first, and none for a small one', async () => {
    expect(await indexing.run()).toEqual({ ran: true, created: [orgIndexName(big)], dropped: [] });
    expect(await indexing.run()).toEqual({ ran: true, created: [orgIndexName(big2)], dropped: [] });
    expect(await indexing.run()).toEqual({ ran: true, created: [], dropped: [] });
    expect(await orgIndexes()).toEqual([orgIndexName(big), orgIndexName(big2)].sort());
  }, 120_000);

  it("plans the service's parameterized search of a large organization on that organization's index, unfiltered", async () => {
    const [{ v }] = await ownVectors(big, 1);
    const plan = await planOf(big, v);
    expect(plan).toContain(`Index Scan using ${orgIndexName(big)}`);
    expect(plan).not.toMatch(/Filter: .*org_id/);
    expect(await planOf(big2, v)).toContain(`Index Scan using ${orgIndexName(big2)}`);
    // A small organization has no index of its own: never another organization's, whichever statement.
    expect(await planOf(small, v, 'vector')).not.toContain('kb_entries_hnsw_');
    expect(await planOf(small, v)).not.toContain('kb_entries_hnsw_');
  });

  it('answers right and only of the organization, on its index (its scan counter moves, the global one does not)', async () => {
    const before = { own: await scans(orgIndexName(big)), global: await scans('knowledge_base_entries_embedding_hnsw_idx') };
    const queries = await ownVectors(big, 12); // more than 5: past the point where a cached generic plan could take over
    for (const q of queries) {
      const rows = await repo.search(big, q.v, 5, {}, 'halfvec');
      expect(rows).toHaveLength(5);
      expect(rows.every((r) => r.org_id === big)).toBe(true);
      expect(rows[0].context_id).toBe(q.context_id);
      expect(Number(rows[0].distance)).toBeLessThan(1e-6); // the full-precision distance: its own vector
      expect(rows.map((r) => Number(r.distance))).toEqual(rows.map((r) => Number(r.distance)).sort((a, b) => a - b));
    }
    for (const q of await ownVectors(big2, 3)) {
      const rows = await repo.search(big, q.v, 5, {}, 'halfvec'); // big2's entry as the query: big's search never returns it
      expect(rows.every((r) => r.org_id === big)).toBe(true);
    }
    // An idle backend flushes its statistics only after 10 s; one that ends flushes them at once.
    await kbPrisma.$disconnect();
    kbPrisma = createKbPrismaClient(t.db.url, 2, { efSearch: 100, perTransaction: false });
    repo = new KbEntryRepository(kbPrisma);
    const deadline = Date.now() + 10_000;
    while ((await scans(orgIndexName(big))) < before.own + 15 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await scans(orgIndexName(big))) - before.own).toBe(15);
    expect((await scans('knowledge_base_entries_embedding_hnsw_idx')) - before.global).toBe(0);
  }, 30_000);

  it('the small organization still finds its own entries (global index, filtered)', async () => {
    for (const q of await ownVectors(small, 3)) {
      const rows = await repo.search(small, q.v, 5, {});
      expect(rows).toHaveLength(5);
      expect(rows.every((r) => r.org_id === small)).toBe(true);
      expect(rows[0].context_id).toBe(q.context_id);
    }
  });

  it("the service's directory knows which organizations have a valid index of their own, and its kind", async () => {
    const directory = new KbOrgIndexDirectory(t.prisma);
    expect([big, big2, small].map((o) => directory.has(o))).toEqual([false, false, false]); // nothing read yet
    await directory.refresh();
    expect([big, big2, small].map((o) => directory.has(o))).toEqual([true, true, false]);
    expect([big, big2, small].map((o) => directory.kind(o))).toEqual(['halfvec', 'halfvec', undefined]);
  });

  it('does nothing while another replica holds the lock', async () => {
    const other = new Client({ connectionString: t.db.url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [ORG_INDEX_LOCK_KEY]);
      expect(await indexing.run()).toEqual({ ran: false, created: [], dropped: [] });
    } finally {
      await other.end();
    }
  });

  it("drops a failed build's leftover (an invalid index) and builds it again", async () => {
    await t.prisma.$executeRawUnsafe(`DROP INDEX ${orgIndexName(big2)}`);
    // A failed CREATE INDEX CONCURRENTLY leaves its index invalid: a unique index over duplicates fails so.
    await expect(
      t.prisma.$executeRawUnsafe(`CREATE UNIQUE INDEX CONCURRENTLY ${orgIndexName(big2)} ON knowledge_base_entries (type)`),
    ).rejects.toThrow();
    const [{ valid }] = await t.prisma.$queryRawUnsafe<Array<{ valid: boolean }>>(
      `SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = '${orgIndexName(big2)}'::regclass`,
    );
    expect(valid).toBe(false);
    expect(await indexing.run()).toEqual({ ran: true, created: [orgIndexName(big2)], dropped: [orgIndexName(big2)] });
    const [{ v }] = await ownVectors(big2, 1);
    expect(await planOf(big2, v)).toContain(`Index Scan using ${orgIndexName(big2)}`);
  }, 60_000);

  it('still searches an earlier full-vector index, then replaces it by a halfvec one and drops it', async () => {
    await t.prisma.$executeRawUnsafe(`DROP INDEX ${orgIndexName(big2)}`);
    const legacy = orgIndexName(big2, 'vector');
    await t.prisma.$executeRawUnsafe(
      `CREATE INDEX ${legacy} ON knowledge_base_entries USING hnsw (embedding vector_cosine_ops) WHERE org_id = '${big2}'::uuid`,
    );
    const directory = new KbOrgIndexDirectory(t.prisma);
    await directory.refresh();
    expect(directory.kind(big2)).toBe('vector');
    const [q] = await ownVectors(big2, 1);
    expect(await planOf(big2, q.v, 'vector')).toContain(`Index Scan using ${legacy}`);
    expect((await repo.search(big2, q.v, 5, {}, 'vector'))[0].context_id).toBe(q.context_id);
    expect(await indexing.run()).toEqual({ ran: true, created: [orgIndexName(big2)], dropped: [legacy] });
    expect(await orgIndexes()).toEqual([orgIndexName(big), orgIndexName(big2)].sort());
    await directory.refresh();
    expect(directory.kind(big2)).toBe('halfvec');
    expect(await planOf(big2, q.v)).toContain(`Index Scan using ${orgIndexName(big2)}`);
  }, 60_000);

  it('drops the index of an organization that shrank below half the threshold', async () => {
    await t.prisma.$executeRawUnsafe(
      `DELETE FROM knowledge_base_entries WHERE context_id IN (SELECT context_id FROM knowledge_base_entries WHERE org_id = '${big2}'::uuid LIMIT 1000)`,
    );
    expect(await indexing.run()).toEqual({ ran: true, created: [], dropped: [orgIndexName(big2)] });
    expect(await orgIndexes()).toEqual([orgIndexName(big)]);
    const directory = new KbOrgIndexDirectory(t.prisma);
    await directory.refresh();
    expect([directory.has(big), directory.has(big2)]).toEqual([true, false]);
  }, 60_000);
});
