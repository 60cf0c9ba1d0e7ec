import { createTestDatabase, randomSuffix } from '@mapi/testing';
import { startContainersIfNeeded } from './containers';

/**
 * One database per test run (migrated), and a NATS/Redis namespace of its own, so runs never see
 * each other's data or answer each other's requests. Workers inherit these variables.
 */
export default async function globalSetup(): Promise<void> {
  await startContainersIfNeeded();
  const db = await createTestDatabase('mapi_test_run');
  process.env.DATABASE_URL = db.url;
  process.env.TEST_RUN_DATABASE = db.name;
  process.env.NAMESPACE = `t${randomSuffix(4)}`;
  process.env.NODE_ENV = 'test';
}
