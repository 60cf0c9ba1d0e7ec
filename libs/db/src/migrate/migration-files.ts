import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One folder of prisma/migrations: `<name>/migration.sql`. */
export interface MigrationFile {
  name: string;
  sql: string;
  /** SHA-256 hex of the file's bytes, as Prisma stores it in `_prisma_migrations.checksum`. */
  checksum: string;
}

/** SHA-256 of the script, lowercase hex (64 chars): Prisma's `render_checksum`. */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql, 'utf8').digest('hex');
}

/**
 * Whether a stored checksum belongs to this script, with Prisma's tolerance: the script may have
 * had its line endings changed by git (LF <-> CRLF), and very old Prisma versions wrote checksums
 * whose bytes were not zero-padded.
 */
export function checksumMatches(sql: string, stored: string): boolean {
  const variants = [sql, sql.replace(/\r\n/g, '\n'), sql.replace(/\r?\n/g, '\r\n')];
  return variants.some((script) => {
    const digest = createHash('sha256').update(script, 'utf8').digest();
    if (stored.length === 64) return digest.toString('hex') === stored;
    return Array.from(digest, (byte) => byte.toString(16)).join('') === stored;
  });
}

/**
 * Reads every `<name>/migration.sql` under `dir`, sorted by folder name (Prisma's order).
 * Checks `migration_lock.toml`, when present, names the postgresql provider.
 */
export function readMigrations(dir: string): MigrationFile[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new Error(`Migrations directory not found: ${dir}`);
  }
  const lockFile = join(dir, 'migration_lock.toml');
  if (existsSync(lockFile)) {
    const provider = /^\s*provider\s*=\s*"([^"]*)"/m.exec(readFileSync(lockFile, 'utf8'))?.[1];
    if (provider !== undefined && provider !== 'postgresql') {
      throw new Error(`${lockFile} names provider "${provider}"; this runner applies only postgresql migrations`);
    }
  }
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((name) => {
    const file = join(dir, name, 'migration.sql');
    if (!existsSync(file)) {
      throw new Error(`Migration folder ${name} has no migration.sql (${file})`);
    }
    const bytes = readFileSync(file);
    return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
  });
}

/**
 * Finds `prisma/migrations` by walking up from `startDir` (default: this file's folder), so it
 * works from libs/db/src (ts-jest / swc-jest) and from libs/db/dist (compiled js) alike.
 */
export function resolveMigrationsDir(startDir: string = __dirname): string {
  let dir = startDir;
  for (;;) {
    const candidate = join(dir, 'prisma', 'migrations');
    if (existsSync(candidate) && statSync(candidate).isDirectory()) return candidate;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`No prisma/migrations folder found in ${startDir} or any folder above it`);
    }
    dir = parent;
  }
}
