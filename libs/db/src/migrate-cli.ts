// Applies pending prisma/migrations to DATABASE_DIRECT_URL (else DATABASE_URL) with Prisma's
// bookkeeping, without Prisma's native schema engine: `npm run db:migrate` (node libs/db/dist/migrate-cli.js).
// Direct, because the migration lock is a session advisory lock, which a transaction-mode pooler
// (PgBouncer) would hand to whichever client's transaction came next.
import { applyMigrations, resolveMigrationsDir } from './migrate/migrate';

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/mapi';

async function main(): Promise<void> {
  const url = process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const applied = await applyMigrations({
    url,
    migrationsDir: resolveMigrationsDir(__dirname),
    log: (line) => console.log(line),
  });
  if (applied.length === 0) console.log('database is up to date');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
