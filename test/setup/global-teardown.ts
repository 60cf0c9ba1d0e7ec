import { Client } from 'pg';
import { testEnv } from '@mapi/testing';

export default async function globalTeardown(): Promise<void> {
  const name = process.env.TEST_RUN_DATABASE;
  if (!name) return;
  const client = new Client({ connectionString: testEnv.adminDatabaseUrl() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.end();
}
