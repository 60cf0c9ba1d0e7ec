import type { ColumnShape, ForeignKeyShape, IndexShape, SchemaShape, TableShape } from './shape';

/** Tables the schema does not model that may exist: Prisma Migrate's own bookkeeping. */
export const IGNORED_TABLES = ['_prisma_migrations'];

/**
 * Every difference between the schema Prisma expects (`expected`) and the database (`actual`), one
 * readable line each, prefixed with the table it concerns; empty when they agree.
 */
export function compareShapes(expected: SchemaShape, actual: SchemaShape, ignoredTables: string[] = IGNORED_TABLES): string[] {
  const problems: string[] = [];
  const actualTables = new Map(actual.tables.map((t) => [t.name, t]));
  for (const table of expected.tables) {
    const found = actualTables.get(table.name);
    if (!found) problems.push(`table ${table.name}: missing from the database (the schema models it)`);
    else problems.push(...compareTable(table, found).map((p) => `table ${table.name}: ${p}`));
  }
  const modelled = new Set(expected.tables.map((t) => t.name));
  for (const table of actual.tables) {
    if (!modelled.has(table.name) && !ignoredTables.includes(table.name)) {
      problems.push(`table ${table.name}: exists in the database but no model maps to it`);
    }
  }
  const actualEnums = new Map(actual.enums.map((e) => [e.name, e]));
  for (const e of expected.enums) {
    const found = actualEnums.get(e.name);
    if (!found) problems.push(`enum ${e.name}: missing from the database`);
    else if (found.values.join() !== e.values.join()) {
      problems.push(`enum ${e.name}: values differ: schema [${e.values.join(', ')}], database [${found.values.join(', ')}]`);
    }
  }
  const modelledEnums = new Set(expected.enums.map((e) => e.name));
  for (const e of actual.enums) {
    if (!modelledEnums.has(e.name)) problems.push(`enum ${e.name}: exists in the database but not in the schema`);
  }
  return problems;
}

function compareTable(expected: TableShape, actual: TableShape): string[] {
  const problems: string[] = [];
  const columns = new Map(actual.columns.map((c) => [c.name, c]));
  for (const column of expected.columns) {
    const found = columns.get(column.name);
    if (!found) problems.push(`column ${column.name}: missing from the database (schema: ${describeColumn(column)})`);
    else problems.push(...compareColumn(column, found).map((p) => `column ${column.name}: ${p}`));
  }
  const known = new Set(expected.columns.map((c) => c.name));
  for (const column of actual.columns) {
    if (!known.has(column.name))
      problems.push(`column ${column.name}: exists in the database (${describeColumn(column)}) but not in the schema`);
  }

  const pk = (p: TableShape['primaryKey']): string => (p ? `${p.name} (${p.columns.join(', ')})` : 'none');
  if (pk(expected.primaryKey) !== pk(actual.primaryKey)) {
    problems.push(`primary key differs: schema ${pk(expected.primaryKey)}, database ${pk(actual.primaryKey)}`);
  }

  problems.push(...compareNamed('index', expected.indexes, actual.indexes, describeIndex));
  problems.push(...compareNamed('foreign key', expected.foreignKeys, actual.foreignKeys, describeForeignKey));
  return problems;
}

function compareColumn(expected: ColumnShape, actual: ColumnShape): string[] {
  const problems: string[] = [];
  if (normaliseType(expected.type) !== normaliseType(actual.type)) {
    problems.push(`type differs: schema ${expected.type}, database ${actual.type}`);
  }
  if (expected.notNull !== actual.notNull) {
    problems.push(
      `nullability differs: schema ${expected.notNull ? 'NOT NULL' : 'nullable'}, database ${actual.notNull ? 'NOT NULL' : 'nullable'}`,
    );
  }
  if (expected.default !== actual.default) {
    problems.push(`default differs: schema ${expected.default ?? 'none'}, database ${actual.default ?? 'none'}`);
  }
  return problems;
}

/** Matches indexes or foreign keys by name; reports differing definitions, missing and extra ones. */
function compareNamed<T extends IndexShape | ForeignKeyShape>(
  kind: string,
  expected: T[],
  actual: T[],
  describe: (item: T) => string,
): string[] {
  const problems: string[] = [];
  const byName = new Map(actual.map((item) => [item.name, item]));
  const matched = new Set<string>();
  for (const item of expected) {
    const found = byName.get(item.name);
    if (found) {
      matched.add(found.name);
      if (describe(found) !== describe(item)) {
        problems.push(`${kind} ${item.name} differs: schema ${describe(item)}, database ${describe(found)}`);
      }
      continue;
    }
    const sameDefinition = actual.find(
      (a) => !matched.has(a.name) && !expected.some((e) => e.name === a.name) && describe(a) === describe(item),
    );
    if (sameDefinition) {
      matched.add(sameDefinition.name);
      problems.push(`${kind} ${item.name}: named ${sameDefinition.name} in the database (same definition: ${describe(item)})`);
    } else {
      problems.push(`${kind} ${item.name}: missing from the database (schema: ${describe(item)})`);
    }
  }
  for (const item of actual) {
    if (!matched.has(item.name)) problems.push(`${kind} ${item.name}: exists in the database (${describe(item)}) but not in the schema`);
  }
  return problems;
}

function describeColumn(column: ColumnShape): string {
  return `${column.type}${column.notNull ? ' NOT NULL' : ''}${column.default === null ? '' : ` DEFAULT ${column.default}`}`;
}

function describeIndex(index: IndexShape): string {
  const using = index.method === 'btree' ? '' : ` USING ${index.method}`;
  return `${index.unique ? 'UNIQUE ' : ''}(${index.columns.join(', ')})${using}${index.where ? ` WHERE ${index.where}` : ''}`;
}

function describeForeignKey(fk: ForeignKeyShape): string {
  return `(${fk.columns.join(', ')}) -> ${fk.referencedTable}(${fk.referencedColumns.join(', ')}) ON DELETE ${fk.onDelete} ON UPDATE ${fk.onUpdate}`;
}

function normaliseType(type: string): string {
  return type
    .toLowerCase()
    .replace(/"/g, '')
    .replace(/\s*,\s*/g, ',')
    .replace(/\s+/g, ' ')
    .trim();
}
