import { Writable } from 'node:stream';
import { Pool } from 'pg';
import { ErrorCode } from '@mapi/contracts';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createLogger, isDependencyUnavailable } from '@mapi/platform';
import { createOrg, createTestDatabase, randomSuffix, testEnv, type TestDatabase } from '@mapi/testing';
import { toServiceError } from './error-mapping';

const logger = createLogger('db-unavailable', 'warn', new Writable({ write: (_c, _e, done) => done() }));
const caught = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );

/**
 * A database that cannot serve (unreachable, out of connections) is a 503 the client retries, not a 500
 * bug: the errors are the real ones Prisma and the pg driver throw, against a closed port and against
 * a role Postgres refuses for its connection limit (SQLSTATE 53300, as when max_connections is reached).
 */
describe('database unavailable → 503 (integration)', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  const role = `mapi_limited_${randomSuffix()}`;
  const closedUrl = 'postgresql://postgres@127.0.0.1:1/none';
  let limitedUrl: string;
  const extra: { close: () => Promise<unknown> }[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('mapi_db_unavail');
    prisma = createPrismaClient({ url: db.url, poolSize: 2 });
    await prisma.$executeRawUnsafe(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 0`);
    const u = new URL(db.url);
    u.username = role;
    limitedUrl = u.toString();
  });
  afterAll(async () => {
    for (const c of extra) await c.close().catch(() => undefined);
    await prisma.$executeRawUnsafe(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
    await prisma.$disconnect();
    await db.drop();
  });

  const prismaAt = (url: string) => {
    const client = createPrismaClient({ url, poolSize: 1 });
    extra.push({ close: () => client.$disconnect() });
    return client;
  };
  const poolAt = (url: string) => {
    const pool = new Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 5_000 });
    extra.push({ close: () => pool.end() });
    return pool;
  };

  it('Prisma and pg, unreachable or refused for too many connections: dependency unavailable, answered 503', async () => {
    const errors = [
      await caught(prismaAt(closedUrl).organization.findFirst()),
      await caught(prismaAt(closedUrl).$queryRaw`SELECT 1`),
      await caught(prismaAt(limitedUrl).organization.findFirst()),
      await caught(prismaAt(limitedUrl).$queryRaw`SELECT 1`),
      await caught(poolAt(closedUrl).query('SELECT 1')),
      await caught(poolAt(limitedUrl).query('SELECT 1')),
    ];
    expect(errors.map((e) => isDependencyUnavailable(e))).toEqual([true, true, true, true, true, true]);
    for (const e of errors) {
      const mapped = toServiceError(e, logger);
      expect(mapped.status).toBe(503);
      expect(mapped.code).toBe(ErrorCode.SERVICE_UNAVAILABLE_ERROR);
      expect(mapped.message).toMatch(/retry/);
    }
  });

  it('a wrong query or a constraint breach is still a bug or a conflict, never taken for an outage', async () => {
    const org = await createOrg(prisma);
    const errors = [
      await caught(prisma.$queryRawUnsafe('SELECT * FROM no_such_table')),
      await caught(prisma.organization.create({ data: { id: org.id, name: 'twice' } })),
      await caught(poolAt(db.url).query('SELEC 1')),
    ];
    expect(errors.map((e) => isDependencyUnavailable(e))).toEqual([false, false, false]);
    expect(toServiceError(errors[0], logger).status).toBe(500);
  });

  it('the test environment reaches its own database (the refusals above are the role and the port)', async () => {
    await expect(poolAt(testEnv.adminDatabaseUrl()).query('SELECT 1')).resolves.toBeDefined();
  });
});
