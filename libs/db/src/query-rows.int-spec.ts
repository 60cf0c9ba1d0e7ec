import { Prisma, createPrismaClient, queryRows, type PrismaClient } from './prisma-client';
import { createThrowawayDatabase, type ThrowawayDatabase } from './migrate/testing/throwaway-database';

describe('queryRows', () => {
  let db: ThrowawayDatabase;
  let prisma: PrismaClient;

  beforeAll(async () => {
    db = await createThrowawayDatabase('mapi_query_rows');
    prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  const sql = (n: number, names: string[]) =>
    Prisma.sql`SELECT x AS n, ${names}::text[] AS names, row_to_json(t)::text AS j FROM (SELECT ${n}::int AS x) t WHERE ${n} > 0`;

  it('reads the same rows as $queryRaw, parameters bound (arrays included)', async () => {
    const rows = await queryRows<{ n: number; names: string[]; j: string }>(prisma, sql(7, ['a', "b'c"]));
    expect(rows).toEqual(await prisma.$queryRaw(sql(7, ['a', "b'c"])));
    expect(rows).toEqual([{ n: 7, names: ['a', "b'c"], j: '{"x":7}' }]);
    expect(await queryRows(prisma, sql(0, []))).toEqual([]);
  });

  it('runs on the pool under the client, not through $queryRaw', async () => {
    const spy = jest.spyOn(prisma, '$queryRaw');
    await queryRows(prisma, sql(1, []));
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('inside a transaction, runs on the transaction’s connection', async () => {
    const seen = await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL application_name = 'query_rows_tx'`;
      return queryRows<{ name: string }>(tx, Prisma.sql`SELECT current_setting('application_name') AS name`);
    });
    expect(seen).toEqual([{ name: 'query_rows_tx' }]);
  });

  it('fails as the driver does on bad SQL (the caller maps it)', async () => {
    await expect(queryRows(prisma, Prisma.sql`SELECT * FROM no_such_table`)).rejects.toMatchObject({ code: '42P01' });
  });

  it('an idle connection ended by the server before any Prisma query does not end the process', async () => {
    const fresh = createPrismaClient({ url: db.url, poolSize: 1 });
    try {
      await queryRows(fresh, Prisma.sql`SELECT set_config('application_name', 'query_rows_idle', false)`);
      await prisma.$executeRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'query_rows_idle'`;
      await new Promise((r) => setTimeout(r, 200)); // the pool sees the idle connection's error here
      expect(await queryRows<{ one: number }>(fresh, Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    } finally {
      await fresh.$disconnect();
    }
  });
});
