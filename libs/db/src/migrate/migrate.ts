import { Client, type ClientBase } from 'pg';
import { CREATE_MIGRATIONS_TABLE, MIGRATION_LOCK_KEY, readHistory, recordApplied, recordRolledBack, type MigrationRecord } from './history';
import { checksumMatches, readMigrations, resolveMigrationsDir, type MigrationFile } from './migration-files';

export { resolveMigrationsDir } from './migration-files';

export interface ApplyMigrationsOptions {
  /** postgresql:// URL. A Prisma-style `?schema=name` selects (and creates) the schema. */
  url: string;
  /** Folder holding `<name>/migration.sql`; default: prisma/migrations of the repository. */
  migrationsDir?: string;
  /** Receives one line per applied migration and warnings. */
  log?: (line: string) => void;
  /** How long to wait for another runner's migration lock; default 10 minutes. */
  lockTimeoutMs?: number;
}

/**
 * Applies the pending migrations of prisma/migrations in name order, with Prisma Migrate's
 * bookkeeping (`_prisma_migrations`), so `prisma migrate deploy` elsewhere sees the same history.
 * Each migration runs in its own transaction together with its history row; a Postgres advisory
 * lock (Prisma's key) serialises concurrent runners. Refuses, before applying anything, when an
 * applied migration was edited afterwards or a failed migration is recorded.
 * Returns the names of the migrations applied by this call.
 */
export async function applyMigrations(options: ApplyMigrationsOptions): Promise<string[]> {
  const log = options.log ?? (() => undefined);
  const migrations = readMigrations(options.migrationsDir ?? resolveMigrationsDir());
  const { connectionString, schema } = splitSchemaParam(options.url);
  const client = new Client({ connectionString, application_name: 'mapi-migrate' });
  await client.connect();
  try {
    if (schema !== undefined) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await client.query(`SET search_path TO ${quoteIdent(schema)}`);
    }
    await acquireLock(client, options.lockTimeoutMs ?? 600_000, log);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const pending = planPending(migrations, await readHistory(client), log);
      const applied: string[] = [];
      for (const migration of pending) {
        const started = Date.now();
        await applyOne(client, migration);
        applied.push(migration.name);
        log(`applied ${migration.name} (${Date.now() - started} ms)`);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Checks the recorded history against the files and returns the migrations still to apply. */
export function planPending(
  migrations: MigrationFile[],
  history: MigrationRecord[],
  log: (line: string) => void = () => undefined,
): MigrationFile[] {
  const failed = history.filter((row) => row.finished_at === null && row.rolled_back_at === null);
  if (failed.length > 0) {
    const list = failed
      .map((row) => `  - ${row.migration_name} (started ${row.started_at.toISOString()})${row.logs ? `\n${indent(row.logs)}` : ''}`)
      .join('\n');
    throw new Error(
      `Refusing to migrate: _prisma_migrations records failed migration(s) that never finished:\n${list}\n` +
        'The database may be partly migrated. Repair it by hand, then mark each one rolled back ' +
        '(`prisma migrate resolve --rolled-back <name>`, or UPDATE _prisma_migrations SET rolled_back_at = now() ' +
        "WHERE migration_name = '<name>' AND finished_at IS NULL) or applied (`prisma migrate resolve --applied <name>`).",
    );
  }
  const applied = history.filter((row) => row.finished_at !== null && row.rolled_back_at === null);
  const files = new Map(migrations.map((m) => [m.name, m]));
  const edited = applied.filter((row) => {
    const file = files.get(row.migration_name);
    return file !== undefined && !checksumMatches(file.sql, row.checksum);
  });
  if (edited.length > 0) {
    const list = edited
      .map((row) => `  - ${row.migration_name}: applied checksum ${row.checksum}, file now ${files.get(row.migration_name)?.checksum}`)
      .join('\n');
    throw new Error(
      `Refusing to migrate: migration.sql of already applied migration(s) was modified after it was applied:\n${list}\n` +
        'Applied migrations must never change: restore the original file(s) and put the change in a new migration.',
    );
  }
  const appliedNames = new Set(applied.map((row) => row.migration_name));
  for (const name of appliedNames) {
    if (!files.has(name)) log(`warning: migration ${name} is recorded as applied but missing from the migrations folder`);
  }
  return migrations.filter((m) => !appliedNames.has(m.name));
}

async function applyOne(client: ClientBase, migration: MigrationFile): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(migration.sql);
    await recordApplied(client, migration.name, migration.checksum);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const reason = describeSqlError(error, migration.sql);
    await recordRolledBack(client, migration.name, migration.checksum, reason).catch(() => undefined);
    throw new Error(`Migration ${migration.name} failed and was rolled back (nothing of it was applied): ${reason}`, {
      cause: error,
    });
  }
}

async function acquireLock(client: ClientBase, timeoutMs: number, log: (line: string) => void): Promise<void> {
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_KEY]);
  if (rows[0]?.locked) return;
  log('waiting for the migration lock: another runner is migrating this database');
  await client.query(`SET lock_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  } catch (error) {
    if (isPgError(error) && error.code === '55P03') {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for the migration lock (pg_advisory_lock(${MIGRATION_LOCK_KEY})), ` +
          'held by another migration runner or `prisma migrate deploy`',
      );
    }
    throw error;
  } finally {
    await client.query('RESET lock_timeout');
  }
}

interface PgError extends Error {
  code?: string;
  position?: string;
  detail?: string;
  hint?: string;
}

function isPgError(error: unknown): error is PgError {
  return error instanceof Error && typeof (error as PgError).code === 'string';
}

/** The error text with SQLSTATE, detail, hint and the line of migration.sql it points at. */
export function describeSqlError(error: unknown, sql: string): string {
  if (!(error instanceof Error)) return String(error);
  if (!isPgError(error)) return error.message;
  const parts = [`${error.message} (SQLSTATE ${error.code})`];
  const position = Number(error.position);
  if (Number.isInteger(position) && position > 0) {
    const before = sql.slice(0, position - 1);
    const line = before.split('\n').length;
    const text = sql.split('\n')[line - 1]?.trim() ?? '';
    parts.push(`at migration.sql line ${line}: ${text}`);
  }
  if (error.detail) parts.push(`detail: ${error.detail}`);
  if (error.hint) parts.push(`hint: ${error.hint}`);
  return parts.join('; ');
}

/** Removes Prisma's `schema` URL parameter, which libpq and pg do not know. */
function splitSchemaParam(url: string): { connectionString: string; schema?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { connectionString: url };
  }
  const schema = parsed.searchParams.get('schema');
  if (schema === null || schema === '') return { connectionString: url };
  parsed.searchParams.delete('schema');
  return { connectionString: parsed.toString(), schema };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');
}
