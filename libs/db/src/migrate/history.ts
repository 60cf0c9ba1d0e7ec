import { randomUUID } from 'node:crypto';
import type { ClientBase } from 'pg';

/**
 * Prisma Migrate's bookkeeping table, created with the exact DDL of Prisma's schema engine
 * (sql-schema-connector, postgres flavour), so `prisma migrate deploy|status|resolve` and this
 * runner read and write the same history.
 */
export const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

/**
 * The advisory lock key Prisma Migrate takes (`SELECT pg_advisory_lock(72707369)`): using the same
 * key also keeps this runner and a concurrent `prisma migrate deploy` from interleaving.
 */
export const MIGRATION_LOCK_KEY = 72707369;

export interface MigrationRecord {
  id: string;
  checksum: string;
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  started_at: Date;
  logs: string | null;
}

export async function readHistory(client: ClientBase): Promise<MigrationRecord[]> {
  const { rows } = await client.query<MigrationRecord>(
    `SELECT id, checksum, migration_name, finished_at, rolled_back_at, started_at, logs
       FROM _prisma_migrations ORDER BY started_at, migration_name`,
  );
  return rows;
}

/** Row of a migration that committed: what Prisma writes after a successful apply (1 step). */
export async function recordApplied(client: ClientBase, name: string, checksum: string): Promise<void> {
  await client.query(
    `INSERT INTO _prisma_migrations
       (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
     VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
    [randomUUID(), checksum, name],
  );
}

/**
 * Row of a migration whose transaction failed and was rolled back: recorded with its error in
 * `logs` and `rolled_back_at` set, i.e. in the state `prisma migrate resolve --rolled-back` leaves.
 * Prisma therefore treats it as not applied (and not as a blocking failed migration), and so do we.
 */
export async function recordRolledBack(client: ClientBase, name: string, checksum: string, logs: string): Promise<void> {
  await client.query(
    `INSERT INTO _prisma_migrations
       (id, checksum, migration_name, logs, started_at, rolled_back_at, applied_steps_count)
     VALUES ($1, $2, $3, $4, now(), clock_timestamp(), 0)`,
    [randomUUID(), checksum, name, logs],
  );
}
