import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A table of the schema, its Prisma delegate name and its owning scope (`// owner:` of its .prisma file). */
export interface OwnedTable {
  table: string;
  delegate: string;
  owner: string;
  /** Scopes that may read the table but not write it (`// readers: a, b` of its .prisma file). */
  readers: string[];
}

export interface SourceFile {
  path: string;
  /** The `scope:` tag of the project the file belongs to. */
  scope: string;
  text: string;
}

const READ_OPS = new Set(['findMany', 'findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow', 'count', 'aggregate', 'groupBy']);
const READ_SQL = new Set(['FROM', 'JOIN']);

const PRISMA_OPS = [
  'findMany',
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'create',
  'createMany',
  'createManyAndReturn',
  'update',
  'updateMany',
  'upsert',
  'delete',
  'deleteMany',
  'count',
  'aggregate',
  'groupBy',
];

/** Every model of prisma/schema with its table and owner. */
export function readOwnedTables(schemaDir: string): OwnedTable[] {
  const tables: OwnedTable[] = [];
  for (const file of readdirSync(schemaDir).filter((f) => f.endsWith('.prisma'))) {
    const text = readFileSync(join(schemaDir, file), 'utf8');
    const models = [...text.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)];
    if (!models.length) continue;
    const owner = /^\/\/ owner: ([a-z-]+)/m.exec(text)?.[1];
    if (!owner) throw new Error(`${file} has models but no "// owner: <scope>" line`);
    const readers =
      /^\/\/ readers: ([a-z, -]+)$/m
        .exec(text)?.[1]
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean) ?? [];
    for (const [, model, body] of models) {
      const table = /@@map\("(\w+)"\)/.exec(body)?.[1] ?? model;
      tables.push({ table, delegate: model[0].toLowerCase() + model.slice(1), owner, readers });
    }
  }
  return tables;
}

/**
 * Reads or writes of another scope's tables: Prisma delegate calls (`tx.phone.findMany(`) and SQL
 * naming a table (`FROM phones`, `JOIN`, `INTO`, `UPDATE`; SQL keywords upper-case, as in this code).
 * A table's declared readers may read it (find*, count, aggregate, groupBy; FROM, JOIN), never write it.
 */
export function ownershipViolations(files: readonly SourceFile[], tables: readonly OwnedTable[]): string[] {
  const byDelegate = new Map(tables.map((t) => [t.delegate, t]));
  const byTable = new Map(tables.map((t) => [t.table, t]));
  const delegateCall = new RegExp(String.raw`\.(\w+)\.(${PRISMA_OPS.join('|')})\(`, 'g');
  const sqlTable = /\b(FROM|JOIN|INTO|UPDATE|TABLE)\s+"?([a-z_]+)"?/g;
  const allowed = (t: OwnedTable, scope: string, read: boolean) => t.owner === scope || (read && t.readers.includes(scope));
  const found: string[] = [];
  for (const file of files) {
    const hits = new Set<string>();
    for (const [, delegate, op] of file.text.matchAll(delegateCall)) {
      const t = byDelegate.get(delegate);
      if (t && !allowed(t, file.scope, READ_OPS.has(op))) hits.add(`${t.table} (prisma.${delegate}, owner ${t.owner})`);
    }
    for (const [, keyword, name] of file.text.matchAll(sqlTable)) {
      const t = byTable.get(name);
      if (t && !allowed(t, file.scope, READ_SQL.has(keyword))) hits.add(`${t.table} (SQL, owner ${t.owner})`);
    }
    for (const hit of hits) found.push(`${file.path} [${file.scope}] reaches ${hit}`);
  }
  return found;
}

const isProductionSource = (path: string) =>
  path.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(path) && !path.includes('/fixtures/') && !path.includes('/testing/');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The production sources of every project whose scope is one of `scopes`, with that scope. */
export function serviceSources(root: string, scopes: readonly string[]): SourceFile[] {
  const files: SourceFile[] = [];
  for (const kind of ['apps', 'libs']) {
    for (const project of readdirSync(join(root, kind))) {
      const config = JSON.parse(readFileSync(join(root, kind, project, 'project.json'), 'utf8')) as { tags?: string[] };
      const scope = config.tags?.find((t) => t.startsWith('scope:'))?.slice('scope:'.length);
      if (!scope || !scopes.includes(scope)) continue;
      for (const path of walk(join(root, kind, project, 'src')).filter(isProductionSource)) {
        files.push({ path: relative(root, path), scope, text: readFileSync(path, 'utf8') });
      }
    }
  }
  return files;
}
