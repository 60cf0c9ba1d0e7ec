import { randomUUID } from 'node:crypto';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { useTestDatabase } from '@mapi/testing';
import { createKbPrismaClient } from '../kb-prisma-client';
import { KbEntryRepository } from './kb-entry-repository';

/**
 * A search filtered to one organization gets k rows from the HNSW index only with pgvector's
 * iterative scan (hnsw.iterative_scan, hnsw.ef_search): without it the scan stops after ef_search
 * candidates of every organization. Both ways of setting them are shown — connection options (direct
 * to Postgres) and SET LOCAL in the search's transaction (behind PgBouncer, DATABASE_POOLER=pgbouncer),
 * which must not leak into the connection's next transaction.
 */
describe('KbEntryRepository.search: HNSW settings, direct and behind a pooler', () => {
  const t = useTestDatabase('kb_hnsw');
  const target = randomUUID();
  const others = randomUUID();
  const k = 40;
  const clients: PrismaClient[] = [];
  const query = '[' + Array.from({ length: 384 }, (_, i) => ((i * 7919) % 97) / 97).join(',') + ']';

  beforeAll(async () => {
    // 1 in 4 rows is the target organization's: ef_search (40 by default) candidates hold ~10 of them.
    const insert = (org: string, n: number) =>
      t.prisma.$executeRawUnsafe(`
      INSERT INTO knowledge_base_entries (org_id, type, question, answer, is_active, embedding)
      SELECT '${org}'::uuid, 'faq', 'q' || i, 'a', true,
             (SELECT array_agg(random()::real) FROM generate_series(1, 384) WHERE i > 0)::vector
        FROM generate_series(1, ${n}) AS i`);
    await insert(others, 3_000);
    await insert(target, 1_000);
    await t.prisma.$executeRawUnsafe('ANALYZE knowledge_base_entries');
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.$disconnect()));
  });

  const client = (c: PrismaClient) => (clients.push(c), c);
  const search = (repo: KbEntryRepository) => repo.search(target, query, k, {});

  it('without the settings the index scan gives fewer than k of the organization (the case they fix)', async () => {
    const rows = await search(new KbEntryRepository(client(createPrismaClient({ url: t.db.url, poolSize: 1 }))));
    expect(rows.length).toBeLessThan(k);
  });

  it('direct: set as connection options, one statement gives k rows, all of the organization', async () => {
    const rows = await search(new KbEntryRepository(client(createKbPrismaClient(t.db.url, 1, { efSearch: 100, perTransaction: false }))));
    expect(rows).toHaveLength(k);
    expect(new Set(rows.map((r) => r.org_id))).toEqual(new Set([target]));
  });

  it('behind a pooler: set per transaction, k rows, and the connection keeps none of it afterwards', async () => {
    const settings = { efSearch: 100, perTransaction: true };
    const prisma = client(createKbPrismaClient(t.db.url, 1, settings));
    const rows = await search(new KbEntryRepository(prisma, settings));
    expect(rows).toHaveLength(k);
    expect(rows.every((r) => r.org_id === target)).toBe(true);
    // Pool of one: the same connection, next transaction. No startup option either (a pooler refuses them).
    const [after] = await prisma.$queryRaw<
      Array<{ scan: string; ef: string }>
    >`SELECT current_setting('hnsw.iterative_scan') AS scan, current_setting('hnsw.ef_search') AS ef`;
    expect(after).toEqual({ scan: 'off', ef: '40' });
  });

  it('direct, the rows come from the pg pool without Prisma: the same rows and types as through Prisma', async () => {
    const settings = { efSearch: 100, perTransaction: true };
    const viaPrisma = await search(new KbEntryRepository(client(createKbPrismaClient(t.db.url, 1, settings)), settings));
    const direct = await search(new KbEntryRepository(client(createKbPrismaClient(t.db.url, 1, { efSearch: 100, perTransaction: false }))));
    expect(direct).toEqual(viaPrisma);
    expect(direct[0].created_at).toBeInstanceOf(Date);
    expect(typeof direct[0].distance).toBe('number');
    expect(typeof direct[0].content_version).toBe('number');
  });
});
