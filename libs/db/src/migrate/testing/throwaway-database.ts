import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Admin connection used to create and drop throw-away databases (tests only). */
export const ADMIN_DATABASE_URL = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface ThrowawayDatabase {
  name: string;
  url: string;
  /** A connected client on the database; closed by drop(). */
  connect(): Promise<Client>;
  drop(): Promise<void>;
}

/** Creates an empty database with a random name on the admin server. */
export async function createThrowawayDatabase(prefix = 'mapi_test'): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  const clients: Client[] = [];
  return {
    name,
    url: url.toString(),
    async connect() {
      const client = new Client({ connectionString: url.toString() });
      await client.connect();
      clients.push(client);
      return client;
    },
    async drop() {
      await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

async function withAdmin<T>(work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
