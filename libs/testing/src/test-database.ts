import { applyMigrations } from '@mapi/db';
import { Client } from 'pg';
import { randomSuffix, testEnv, withDatabase } from './test-env';

/** A throw-away database with every migration applied; `drop()` removes it. */
export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: testEnv.adminDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(prefix = 'mapi_test'): Promise<TestDatabase> {
  const name = `${prefix}_${randomSuffix()}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(testEnv.adminDatabaseUrl(), name);
  await applyMigrations({ url });
  return {
    name,
    url,
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
