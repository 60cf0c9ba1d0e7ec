import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createTestDatabase, type TestDatabase } from './test-database';

/** What `useTestDatabase` gives a spec: the database of the current file and a client on it. */
export interface TestDatabaseHandle {
  readonly prisma: PrismaClient;
  readonly db: TestDatabase;
}

export interface UseTestDatabaseOptions {
  /** Connections of the Prisma client's pool (default 2). */
  poolSize?: number;
}

/**
 * Registers Jest hooks for one spec (or `describe`): `beforeAll` creates a throw-away database named
 * `<prefix>_<suffix>` and a Prisma client on it, `afterAll` disconnects the client and drops the database.
 * Read `prisma` and `db` from the returned object inside hooks and tests, not at module level.
 * Jest runs afterAll hooks in declaration order, and this one drops the database (ending its
 * connections): a spec with work still running in the background (a worker, a relay, its own pg pool)
 * declares the afterAll that stops it before calling this.
 */
export function useTestDatabase(prefix: string, options: UseTestDatabaseOptions = {}): TestDatabaseHandle {
  let db: TestDatabase | undefined;
  let prisma: PrismaClient | undefined;

  beforeAll(async () => {
    db = await createTestDatabase(prefix);
    prisma = createPrismaClient({ url: db.url, poolSize: options.poolSize ?? 2 });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  const notReady = (what: string) =>
    new Error(`useTestDatabase('${prefix}'): ${what} used before its beforeAll ran (read it inside a hook or a test)`);
  return {
    get prisma(): PrismaClient {
      if (!prisma) throw notReady('prisma');
      return prisma;
    },
    get db(): TestDatabase {
      if (!db) throw notReady('db');
      return db;
    },
  };
}
