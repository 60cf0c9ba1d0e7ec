import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checksumMatches, migrationChecksum, readMigrations, resolveMigrationsDir } from './migration-files';
import { planPending } from './migrate';
import type { MigrationRecord } from './history';

describe('migration files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mapi-migrations-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (path: string, text: string): void => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };

  it('reads migration folders in name order with the sha256 of their bytes', () => {
    write('20260102000000_b/migration.sql', 'SELECT 2;\n');
    write('20260101000000_a/migration.sql', 'SELECT 1;\n');
    write('migration_lock.toml', 'provider = "postgresql"\n');
    const migrations = readMigrations(dir);
    expect(migrations.map((m) => m.name)).toEqual(['20260101000000_a', '20260102000000_b']);
    expect(migrations[0].checksum).toBe(createHash('sha256').update('SELECT 1;\n').digest('hex'));
    expect(migrations[0].checksum).toHaveLength(64);
  });

  it('refuses a folder without migration.sql, a missing directory and another provider', () => {
    write('20260101000000_a/notes.txt', '');
    expect(() => readMigrations(dir)).toThrow(/20260101000000_a has no migration.sql/);
    expect(() => readMigrations(join(dir, 'nope'))).toThrow(/Migrations directory not found/);
    rmSync(join(dir, '20260101000000_a'), { recursive: true });
    write('migration_lock.toml', 'provider = "mysql"\n');
    expect(() => readMigrations(dir)).toThrow(/provider "mysql"/);
  });

  it('accepts checksums across LF/CRLF changes and legacy unpadded checksums, as Prisma does', () => {
    const sql = 'CREATE TABLE a (id int);\nCREATE TABLE b (id int);\n';
    const crlf = sql.replace(/\n/g, '\r\n');
    expect(checksumMatches(sql, migrationChecksum(sql))).toBe(true);
    expect(checksumMatches(crlf, migrationChecksum(sql))).toBe(true);
    expect(checksumMatches(sql, migrationChecksum(crlf))).toBe(true);
    const legacy = Array.from(createHash('sha256').update(sql).digest(), (b) => b.toString(16)).join('');
    expect(checksumMatches(sql, legacy)).toBe(true);
    expect(checksumMatches(`${sql}-- edited\n`, migrationChecksum(sql))).toBe(false);
  });

  it('resolveMigrationsDir walks up to the repository from src and from dist', () => {
    const repoDir = resolve(__dirname, '../../../..');
    expect(resolveMigrationsDir(__dirname)).toBe(join(repoDir, 'prisma', 'migrations'));
    expect(resolveMigrationsDir(join(repoDir, 'libs', 'db', 'dist', 'migrate'))).toBe(join(repoDir, 'prisma', 'migrations'));
    expect(existsSync(join(resolveMigrationsDir(), '..', 'schema', 'schema.prisma'))).toBe(true);
    expect(() => resolveMigrationsDir(dir)).toThrow(/No prisma\/migrations folder found/);
  });
});

describe('planPending', () => {
  const files = [
    { name: '001_a', sql: 'SELECT 1;', checksum: migrationChecksum('SELECT 1;') },
    { name: '002_b', sql: 'SELECT 2;', checksum: migrationChecksum('SELECT 2;') },
  ];
  const row = (name: string, patch: Partial<MigrationRecord> = {}): MigrationRecord => ({
    id: name,
    migration_name: name,
    checksum: files.find((f) => f.name === name)?.checksum ?? 'x'.repeat(64),
    started_at: new Date(0),
    finished_at: new Date(0),
    rolled_back_at: null,
    logs: null,
    ...patch,
  });

  it('returns the migrations without a finished, not rolled back row', () => {
    expect(planPending(files, []).map((m) => m.name)).toEqual(['001_a', '002_b']);
    expect(planPending(files, [row('001_a')]).map((m) => m.name)).toEqual(['002_b']);
    const rolledBack = row('002_b', { finished_at: null, rolled_back_at: new Date(0) });
    expect(planPending(files, [row('001_a'), rolledBack]).map((m) => m.name)).toEqual(['002_b']);
  });

  it('warns about applied migrations missing from the folder', () => {
    const log = jest.fn();
    expect(planPending(files, [row('001_a'), row('002_b'), row('000_gone')], log)).toEqual([]);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('000_gone is recorded as applied but missing'));
  });

  it('refuses a recorded failed migration and an edited applied one', () => {
    expect(() => planPending(files, [row('001_a', { finished_at: null, logs: 'boom' })])).toThrow(
      /failed migration\(s\) that never finished:\n {2}- 001_a .*\n.*boom/,
    );
    expect(() => planPending(files, [row('001_a', { checksum: 'f'.repeat(64) })])).toThrow(
      /001_a: applied checksum f{64}, file now [0-9a-f]{64}/,
    );
  });
});
