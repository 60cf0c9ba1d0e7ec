// Fails when prisma/schema/*.prisma and prisma/migrations disagree: applies every migration to a fresh
// database and compares what Postgres then holds with what Prisma derives from the schema (tables,
// columns with types/nullability/defaults, primary keys, unique and plain indexes incl. DESC,
// foreign keys with actions, enums; no table beyond the models and _prisma_migrations).
// On failure: write the missing migration (see docs of libs/db/src/migrate) or fix the schema.
import type { Client } from 'pg';
import { findSchemaDrift } from './migrate/drift';
import { applyMigrations, resolveMigrationsDir } from './migrate/migrate';
import { readSchemaText } from './schema-files';
import { createThrowawayDatabase, type ThrowawayDatabase } from './migrate/testing/throwaway-database';

const migrationsDir = resolveMigrationsDir(__dirname);
const schema = readSchemaText(__dirname);

describe('prisma/schema and prisma/migrations', () => {
  let db: ThrowawayDatabase;
  let client: Client;

  beforeAll(async () => {
    db = await createThrowawayDatabase('mapi_drift');
    await applyMigrations({ url: db.url, migrationsDir });
    client = await db.connect();
  });

  afterAll(async () => {
    await db?.drop();
  });

  /**
   * Indexes Prisma cannot declare (e.g. pgvector's HNSW) live only in SQL. A schema file names each
   * with `/// @sql-only-index <name>`; the check then accepts that index in the database, and only it.
   */
  const sqlOnly = [...schema.matchAll(/@sql-only-index\s+(\S+)/g)].map((m) => m[1]);
  const notSqlOnly = (line: string) => !sqlOnly.some((name) => line.includes(`index ${name}: exists in the database`));

  it('declares SQL-only indexes that really exist', async () => {
    const { rows } = await client.query<{ indexname: string }>('SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()');
    for (const name of sqlOnly) expect(rows.map((r) => r.indexname)).toContain(name);
  });

  it('describe the same database', async () => {
    const drift = (await findSchemaDrift(client, schema)).filter(notSqlOnly);
    if (drift.length > 0) {
      throw new Error(
        `prisma/schema/*.prisma and the migrations in ${migrationsDir} disagree (${drift.length} difference(s)):\n` +
          drift.map((line) => `  - ${line}`).join('\n'),
      );
    }
  });

  // The same check must fail for a schema the migrations do not implement.
  it('would report a field, an index and a model the migrations lack', async () => {
    const edited = schema
      .replace(/(model Phone \{\n)/, '$1  extra_note String? @db.VarChar(40)\n')
      .replace(/@@index\(\[org_id, org_phone\]\)/, '@@index([org_id, org_phone(sort: Desc)])')
      .concat('\nmodel Note {\n  id Int @id @default(autoincrement())\n  @@map("notes")\n}\n');
    expect((await findSchemaDrift(client, edited)).filter(notSqlOnly)).toEqual([
      'table phones: column extra_note: missing from the database (schema: character varying(40))',
      'table phones: index phones_org_id_org_phone_idx differs: schema (org_id, org_phone DESC), database (org_id, org_phone)',
      'table notes: missing from the database (the schema models it)',
    ]);
  });
});
