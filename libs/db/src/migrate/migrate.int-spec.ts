// The migration runner against real Postgres; every test uses its own throw-away database.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATION_LOCK_KEY } from './history';
import { applyMigrations, resolveMigrationsDir } from './migrate';
import { migrationChecksum, readMigrations } from './migration-files';
import { createThrowawayDatabase, type ThrowawayDatabase } from './testing/throwaway-database';

jest.setTimeout(30_000);

const MODEL_TABLES = ['api_tokens', 'chats', 'messages', 'organizations', 'phones'];

let db: ThrowawayDatabase;
let dirs: string[] = [];
beforeEach(async () => {
  db = await createThrowawayDatabase('mapi_migrate');
});
afterEach(async () => {
  await db.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** A temporary migrations folder holding the given `name -> migration.sql` files. */
function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mapi-migrations-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  for (const [name, sql] of Object.entries(files)) addMigration(dir, name, sql);
  return dir;
}

function addMigration(dir: string, name: string, sql: string): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'migration.sql'), sql);
}

async function query<T extends object>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = await db.connect();
  return (await client.query<T>(sql, params)).rows;
}

async function tables(): Promise<string[]> {
  const rows = await query<{ t: string }>(`SELECT tablename::text AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
  return rows.map((r) => r.t);
}

interface HistoryRow {
  id: string;
  checksum: string;
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  started_at: Date;
  logs: string | null;
  applied_steps_count: number;
}

const history = (): Promise<HistoryRow[]> => query<HistoryRow>('SELECT * FROM _prisma_migrations ORDER BY started_at, migration_name');

describe('applyMigrations', () => {
  it("creates every table and Prisma bookkeeping rows with the files' checksums on an empty database", async () => {
    const dir = resolveMigrationsDir(__dirname);
    const files = readMigrations(dir);
    const log = jest.fn();

    const applied = await applyMigrations({ url: db.url, migrationsDir: dir, log });

    expect(applied).toEqual(files.map((f) => f.name));
    expect(applied).toContain('20261122000000_init');
    expect(await tables()).toEqual(expect.arrayContaining(['_prisma_migrations', ...MODEL_TABLES]));
    const rows = await history();
    expect(rows.map((r) => r.migration_name)).toEqual(applied);
    for (const row of rows) {
      const sql = readFileSync(join(dir, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(migrationChecksum(sql.toString('utf8')));
      expect(row).toMatchObject({ applied_steps_count: 1, rolled_back_at: null, logs: null });
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
    }
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^applied 20261122000000_init \(\d+ ms\)$/));
  });

  it('creates _prisma_migrations exactly as Prisma does', async () => {
    await applyMigrations({ url: db.url, migrationsDir: migrationsDir({}) });
    const columns = await query(
      `SELECT column_name, data_type, character_maximum_length AS len, is_nullable, column_default
         FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns).toEqual([
      { column_name: 'id', data_type: 'character varying', len: 36, is_nullable: 'NO', column_default: null },
      { column_name: 'checksum', data_type: 'character varying', len: 64, is_nullable: 'NO', column_default: null },
      { column_name: 'finished_at', data_type: 'timestamp with time zone', len: null, is_nullable: 'YES', column_default: null },
      { column_name: 'migration_name', data_type: 'character varying', len: 255, is_nullable: 'NO', column_default: null },
      { column_name: 'logs', data_type: 'text', len: null, is_nullable: 'YES', column_default: null },
      { column_name: 'rolled_back_at', data_type: 'timestamp with time zone', len: null, is_nullable: 'YES', column_default: null },
      { column_name: 'started_at', data_type: 'timestamp with time zone', len: null, is_nullable: 'NO', column_default: 'now()' },
      { column_name: 'applied_steps_count', data_type: 'integer', len: null, is_nullable: 'NO', column_default: '0' },
    ]);
    const pk = await query(
      `SELECT conname::text AS name FROM pg_constraint WHERE conrelid = '_prisma_migrations'::regclass AND contype = 'p'`,
    );
    expect(pk).toEqual([{ name: '_prisma_migrations_pkey' }]);
  });

  it('applies nothing when run a second time', async () => {
    const dir = resolveMigrationsDir(__dirname);
    await applyMigrations({ url: db.url, migrationsDir: dir });
    const before = await history();

    expect(await applyMigrations({ url: db.url, migrationsDir: dir })).toEqual([]);
    expect(await history()).toEqual(before);
  });

  it('applies only the new migration when one is added later', async () => {
    const dir = migrationsDir({ '001_a': 'CREATE TABLE a (id int);' });
    expect(await applyMigrations({ url: db.url, migrationsDir: dir })).toEqual(['001_a']);
    addMigration(dir, '002_b', 'CREATE TABLE b (id int);');
    expect(await applyMigrations({ url: db.url, migrationsDir: dir })).toEqual(['002_b']);
    expect((await history()).map((r) => r.migration_name)).toEqual(['001_a', '002_b']);
  });

  it('applies each migration exactly once when runners start concurrently', async () => {
    const dir = migrationsDir({
      '001_slow': 'SELECT pg_sleep(0.5);\nCREATE TABLE slow (id int);',
      '002_counter': 'CREATE TABLE counter (n int);\nINSERT INTO counter VALUES (1);',
    });
    const logs: string[] = [];
    const runs = await Promise.all(
      [1, 2, 3].map(() => applyMigrations({ url: db.url, migrationsDir: dir, log: (line) => logs.push(line) })),
    );

    expect(runs.flat().sort()).toEqual(['001_slow', '002_counter']);
    expect(runs.filter((names) => names.length > 0)).toHaveLength(1);
    expect(logs.filter((l) => l.startsWith('waiting for the migration lock')).length).toBeGreaterThan(0);
    expect(await query('SELECT n FROM counter')).toEqual([{ n: 1 }]);
    expect((await history()).map((r) => r.migration_name)).toEqual(['001_slow', '002_counter']);
  });

  it('applies the real migrations once from two concurrent runners', async () => {
    const dir = resolveMigrationsDir(__dirname);
    const [first, second] = await Promise.all([
      applyMigrations({ url: db.url, migrationsDir: dir }),
      applyMigrations({ url: db.url, migrationsDir: dir }),
    ]);
    expect([...first, ...second]).toEqual(readMigrations(dir).map((m) => m.name));
    expect((await history()).length).toBe(readMigrations(dir).length);
  });

  it('gives up with a clear error when another runner holds the lock too long', async () => {
    const holder = await db.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await expect(
      applyMigrations({ url: db.url, migrationsDir: migrationsDir({ '001_a': 'SELECT 1;' }), lockTimeoutMs: 300 }),
    ).rejects.toThrow(/Timed out after 300 ms waiting for the migration lock/);
    await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  });

  it('refuses an applied migration that was edited afterwards, before applying anything', async () => {
    const dir = migrationsDir({ '001_a': 'CREATE TABLE a (id int);\n' });
    await applyMigrations({ url: db.url, migrationsDir: dir });
    writeFileSync(join(dir, '001_a', 'migration.sql'), 'CREATE TABLE a (id bigint);\n');
    addMigration(dir, '002_b', 'CREATE TABLE b (id int);');

    await expect(applyMigrations({ url: db.url, migrationsDir: dir })).rejects.toThrow(
      /Refusing to migrate: migration\.sql of already applied migration\(s\) was modified after it was applied:\n {2}- 001_a: applied checksum [0-9a-f]{64}, file now [0-9a-f]{64}/,
    );
    expect(await tables()).not.toContain('b');
  });

  it('accepts an applied migration whose line endings git turned into CRLF', async () => {
    const dir = migrationsDir({ '001_a': 'CREATE TABLE a (id int);\nCREATE TABLE c (id int);\n' });
    await applyMigrations({ url: db.url, migrationsDir: dir });
    writeFileSync(join(dir, '001_a', 'migration.sql'), 'CREATE TABLE a (id int);\r\nCREATE TABLE c (id int);\r\n');
    expect(await applyMigrations({ url: db.url, migrationsDir: dir })).toEqual([]);
  });

  it('rolls a failing migration back completely, reports it, and applies it once fixed', async () => {
    const dir = migrationsDir({
      '001_ok': 'CREATE TABLE ok (id int);',
      '002_broken': 'CREATE TABLE half_written (id int);\nINSERT INTO half_written VALUES (1);\nSELECT * FROM no_such_table;\n',
      '003_after': 'CREATE TABLE after_broken (id int);',
    });

    const failure = applyMigrations({ url: db.url, migrationsDir: dir });
    await expect(failure).rejects.toThrow(
      /Migration 002_broken failed and was rolled back \(nothing of it was applied\): relation "no_such_table" does not exist \(SQLSTATE 42P01\); at migration\.sql line 3: SELECT \* FROM no_such_table;/,
    );
    expect(await tables()).toEqual(['_prisma_migrations', 'ok']);
    const rows = await history();
    expect(rows.map((r) => [r.migration_name, r.finished_at === null, r.rolled_back_at === null])).toEqual([
      ['001_ok', false, true],
      ['002_broken', true, false],
    ]);
    expect(rows[1].logs).toMatch(/no_such_table/);

    writeFileSync(join(dir, '002_broken', 'migration.sql'), 'CREATE TABLE half_written (id int);\n');
    expect(await applyMigrations({ url: db.url, migrationsDir: dir })).toEqual(['002_broken', '003_after']);
  });

  it('refuses to run while a failed migration is recorded (as prisma migrate deploy leaves it)', async () => {
    const dir = migrationsDir({ '001_a': 'CREATE TABLE a (id int);', '002_b': 'CREATE TABLE b (id int);' });
    await applyMigrations({ url: db.url, migrationsDir: migrationsDir({ '001_a': 'CREATE TABLE a (id int);' }) });
    await query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, logs, started_at, applied_steps_count)
       VALUES (gen_random_uuid()::text, $1, '002_b', 'Database error: boom', now(), 0)`,
      [migrationChecksum('CREATE TABLE b (id int);')],
    );

    await expect(applyMigrations({ url: db.url, migrationsDir: dir })).rejects.toThrow(
      /Refusing to migrate: _prisma_migrations records failed migration\(s\) that never finished:\n {2}- 002_b .*\n.*boom/,
    );
    expect(await tables()).not.toContain('b');
  });

  it('applies into the schema named by a Prisma-style ?schema= parameter', async () => {
    const url = new URL(db.url);
    url.searchParams.set('schema', 'tenant_one');
    await applyMigrations({ url: url.toString(), migrationsDir: migrationsDir({ '001_a': 'CREATE TABLE a (id int);' }) });
    const rows = await query<{ schemaname: string; tablename: string }>(
      `SELECT schemaname::text, tablename::text FROM pg_tables WHERE schemaname = 'tenant_one' ORDER BY 2`,
    );
    expect(rows.map((r) => r.tablename)).toEqual(['_prisma_migrations', 'a']);
  });
});
