import { applyMigrations } from '@mapi/db';
import { Redis } from 'ioredis';
import { StorageType, connect, type NatsConnection } from 'nats';
import { Client } from 'pg';
import { testEnv } from '../test-env';
import { PrivateNats } from './private-nats';
import { PrivatePostgres } from './private-postgres';
import { PrivateRedis } from './private-redis';

jest.setTimeout(120_000);

async function query<T = Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

async function reconnected(nc: NatsConnection, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await nc.flush();
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The fault bench's servers: private, on their own ports and directories, stopped and started as faults are. */
describe('private servers for fault tests', () => {
  it("Postgres: the project's migrations (pgvector) apply; committed rows survive a fast and an immediate (crash) restart", async () => {
    const pg = await PrivatePostgres.start();
    try {
      expect(pg.port).not.toBe(5432);
      await query(pg.url(), 'CREATE DATABASE mapi');
      await applyMigrations({ url: pg.url('mapi') });
      expect(await query(pg.url('mapi'), "SELECT extname FROM pg_extension WHERE extname = 'vector'")).toEqual([{ extname: 'vector' }]);
      await query(pg.url('mapi'), 'CREATE TABLE fault_probe (n int); INSERT INTO fault_probe VALUES (1)');
      await pg.restart('fast');
      await query(pg.url('mapi'), 'INSERT INTO fault_probe VALUES (2)');
      await pg.restart('immediate');
      expect(await query(pg.url('mapi'), 'SELECT n FROM fault_probe ORDER BY n')).toEqual([{ n: 1 }, { n: 2 }]);
      await pg.stop('fast');
      await expect(query(pg.url('mapi'), 'SELECT 1')).rejects.toThrow();
      expect(pg.running).toBe(false);
    } finally {
      await pg.destroy();
    }
  });

  it('nats-server: a kill keeps the JetStream store, a restart on an empty store loses its streams; a client reconnects', async () => {
    const nats = await PrivateNats.start();
    let nc: NatsConnection | undefined;
    try {
      nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({ name: 'PROBE', subjects: ['probe.>'], storage: StorageType.File });
      for (let i = 0; i < 3; i++) await nc.jetstream().publish('probe.x', new Uint8Array([i]));
      await nats.restart({ kill: true });
      await reconnected(nc); // the same connection
      expect((await jsm.streams.info('PROBE')).state.messages).toBe(3);
      await nats.restart({ empty: true });
      await reconnected(nc);
      await expect(jsm.streams.info('PROBE')).rejects.toThrow(/stream not found/);
    } finally {
      await nc?.close();
      await nats.destroy();
    }
  });

  it('redis-server: a restart keeps its data (AOF), a kill loses no acknowledged write (appendfsync always), an empty start has none', async () => {
    const redis = await PrivateRedis.start();
    const client = new Redis(redis.url, { maxRetriesPerRequest: null, retryStrategy: () => 100 });
    try {
      await client.set('probe', 'kept');
      await redis.restart();
      expect(await client.get('probe')).toBe('kept');
      await client.set('probe', 'after');
      await redis.restart({ kill: true });
      expect(await client.get('probe')).toBe('after');
      await redis.restart({ empty: true });
      expect(await client.get('probe')).toBeNull();
    } finally {
      client.disconnect();
      await redis.destroy();
    }
  });

  it("leaves the machine's shared servers alone", async () => {
    const nc = await connect({ servers: testEnv.natsUrl() });
    await nc.flush();
    await nc.close();
    expect(await query(testEnv.adminDatabaseUrl(), 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });
});
