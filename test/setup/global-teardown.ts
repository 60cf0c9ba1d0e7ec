import { Client } from 'pg';
import { testEnv } from '@mapi/testing';
import { stopContainers } from './containers';

export default async function globalTeardown(): Promise<void> {
  const name = process.env.TEST_RUN_DATABASE;
  if (name) {
    const client = new Client({ connectionString: testEnv.adminDatabaseUrl() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  }
  await stopContainers();
}
