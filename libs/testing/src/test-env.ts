import { randomBytes } from 'node:crypto';

/** Where the test servers are: from the environment, with the local machine's defaults. */
export const testEnv = {
  adminDatabaseUrl: () => process.env.TEST_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  databaseUrl: () => process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/mapi_test',
  redisUrl: () => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  natsUrl: () => process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  namespace: () => process.env.NAMESPACE ?? 'mapi-test',
};

export const randomSuffix = (bytes = 6) => randomBytes(bytes).toString('hex');

/** The same server URL with another database name. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
