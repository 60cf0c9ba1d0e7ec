import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient, type Prisma } from './generated/prisma/client';

export type { PrismaClient } from './generated/prisma/client';
export { Prisma } from './generated/prisma/client';

export interface PrismaClientOptions {
  url: string;
  /** Pool size of the pg driver under the adapter. */
  poolSize?: number;
}

/** The pg pool under each client createPrismaClient made (the one pool both ways of reading share). */
const pools = new WeakMap<object, pg.Pool>();

/** The Prisma client on the pg driver adapter: no native query engine at run time. */
export function createPrismaClient(options: PrismaClientOptions): PrismaClient {
  // The pool is made here rather than by the adapter so that queryRows can use it too; the adapter
  // still ends it on $disconnect.
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
  // An idle connection the server ends (a restart, idle_session_timeout, a proxy) is an 'error' event
  // on the pool, which drops that connection; without a listener Node would end the process. The
  // adapter adds its own only on Prisma's first query, and queryRows may use the pool before any.
  pool.on('error', () => undefined);
  // The same for a connection checked out between two queries: its next query fails, the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  // (the adapter carries its own, newer @types/pg; at run time there is one pg and one Pool class)
  const client = new PrismaClient({
    adapter: new PrismaPg(pool as unknown as ConstructorParameters<typeof PrismaPg>[0], { disposeExternalPool: true }),
  });
  pools.set(client, pool);
  return client;
}

/**
 * The rows of one SELECT, run on the pg pool under `db` without Prisma's per-query work (its
 * request pipeline, argument serialization and result mapping), a large share of a small hot read's
 * cost in a service (docs/benchmarks.md, "GET messages: gateway vs raw driver"). For the
 * hot list reads only, whose columns come back as text (`row_to_json(t)::text`) and need no
 * decoding. Inside a transaction (`db` a transaction client), or on a client not made by
 * createPrismaClient, it runs as `$queryRaw` instead, so it is always on the caller's connection.
 */
export async function queryRows<T>(db: { $queryRaw: PrismaClient['$queryRaw'] }, sql: Prisma.Sql): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool) return db.$queryRaw<T[]>(sql);
  return (await pool.query(sql.text, sql.values)).rows as T[];
}
