import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveMigrationsDir } from './migrate/migration-files';

/** prisma/schema, the multi-file Prisma schema (one file per owning service). */
export function resolveSchemaDir(from?: string): string {
  return join(resolveMigrationsDir(from), '..', 'schema');
}

/** Every .prisma file of the schema folder as one schema text (schema.prisma, with the datasource, first). */
export function readSchemaText(from?: string): string {
  const dir = resolveSchemaDir(from);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.prisma'))
    .sort((a, b) => (a === 'schema.prisma' ? -1 : b === 'schema.prisma' ? 1 : a.localeCompare(b)));
  return files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
}
