import type { ClientBase } from 'pg';
import { canonicalDefault, type SchemaShape, type TableShape } from './shape';

// Objects that belong to an extension (CREATE EXTENSION) are not the application's schema.
const NOT_EXTENSION_MEMBER = (oid: string): string =>
  `NOT EXISTS (SELECT 1 FROM pg_depend dep WHERE dep.objid = ${oid} AND dep.deptype = 'e')`;

const TABLES = `
  SELECT c.relname::text AS table_name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
     AND ${NOT_EXTENSION_MEMBER('c.oid')}
   ORDER BY 1`;

const COLUMNS = `
  SELECT c.relname::text AS table_name, a.attname::text AS column_name,
         format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
         pg_get_expr(d.adbin, d.adrelid) AS default_expr
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
   WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
   ORDER BY c.relname, a.attnum`;

// One row per index; key columns as "name[ opclass][ DESC][ NULLS FIRST|LAST]", the opclass only
// when it is not the type's default and the NULLS clause only when it is not the default order.
const INDEXES = `
  SELECT t.relname::text AS table_name, i.relname::text AS index_name, x.indisunique AS is_unique,
         x.indisprimary AS is_primary, am.amname::text AS method,
         pg_get_expr(x.indpred, x.indrelid) AS predicate,
         ARRAY(
           SELECT COALESCE(a.attname::text, pg_get_indexdef(x.indexrelid, k.ord, true))
                  || CASE WHEN opc.opcdefault THEN '' ELSE ' ' || opc.opcname END
                  || CASE WHEN x.indoption[k.ord - 1] & 1 = 1 THEN ' DESC' ELSE '' END
                  || CASE WHEN am.amname <> 'btree' THEN ''
                          WHEN x.indoption[k.ord - 1] & 3 = 1 THEN ' NULLS LAST'
                          WHEN x.indoption[k.ord - 1] & 3 = 2 THEN ' NULLS FIRST' ELSE '' END
             FROM generate_series(1, x.indnkeyatts::int) AS k(ord)
             LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[k.ord - 1] AND x.indkey[k.ord - 1] <> 0
             LEFT JOIN pg_opclass opc ON opc.oid = x.indclass[k.ord - 1]
            ORDER BY k.ord) AS columns
    FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    JOIN pg_am am ON am.oid = i.relam
   WHERE n.nspname = current_schema() AND t.relkind IN ('r', 'p')
   ORDER BY 1, 2`;

const FOREIGN_KEYS = `
  SELECT t.relname::text AS table_name, con.conname::text AS name, rt.relname::text AS referenced_table,
         ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY u(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = u.attnum ORDER BY u.ord) AS columns,
         ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY u(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = u.attnum ORDER BY u.ord) AS referenced_columns,
         con.confdeltype::text AS on_delete, con.confupdtype::text AS on_update
    FROM pg_constraint con
    JOIN pg_class t ON t.oid = con.conrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    JOIN pg_class rt ON rt.oid = con.confrelid
   WHERE con.contype = 'f' AND n.nspname = current_schema()
   ORDER BY 1, 2`;

const ENUMS = `
  SELECT t.typname::text AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
    FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
   WHERE n.nspname = current_schema() AND ${NOT_EXTENSION_MEMBER('t.oid')}
   GROUP BY t.typname ORDER BY 1`;

const ACTIONS: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

interface ColumnRow {
  table_name: string;
  column_name: string;
  type: string;
  not_null: boolean;
  default_expr: string | null;
}
interface IndexRow {
  table_name: string;
  index_name: string;
  is_unique: boolean;
  is_primary: boolean;
  method: string;
  predicate: string | null;
  columns: string[];
}
interface ForeignKeyRow {
  table_name: string;
  name: string;
  referenced_table: string;
  columns: string[];
  referenced_columns: string[];
  on_delete: string;
  on_update: string;
}

/** Reads the tables, columns, indexes, foreign keys and enums of the connection's current schema. */
export async function introspectShape(client: ClientBase): Promise<SchemaShape> {
  const tableRows = (await client.query<{ table_name: string }>(TABLES)).rows;
  const tables = new Map<string, TableShape>(
    tableRows.map((r) => [r.table_name, { name: r.table_name, columns: [], primaryKey: null, indexes: [], foreignKeys: [] }]),
  );
  for (const row of (await client.query<ColumnRow>(COLUMNS)).rows) {
    tables.get(row.table_name)?.columns.push({
      name: row.column_name,
      type: row.type,
      notNull: row.not_null,
      default: canonicalDefault(row.default_expr, row.type),
    });
  }
  for (const row of (await client.query<IndexRow>(INDEXES)).rows) {
    const table = tables.get(row.table_name);
    if (!table) continue;
    if (row.is_primary) {
      table.primaryKey = { name: row.index_name, columns: row.columns };
      continue;
    }
    table.indexes.push({ name: row.index_name, unique: row.is_unique, method: row.method, where: row.predicate, columns: row.columns });
  }
  for (const row of (await client.query<ForeignKeyRow>(FOREIGN_KEYS)).rows) {
    tables.get(row.table_name)?.foreignKeys.push({
      name: row.name,
      columns: row.columns,
      referencedTable: row.referenced_table,
      referencedColumns: row.referenced_columns,
      onDelete: ACTIONS[row.on_delete] ?? row.on_delete,
      onUpdate: ACTIONS[row.on_update] ?? row.on_update,
    });
  }
  const enums = (await client.query<{ name: string; labels: string[] }>(ENUMS)).rows.map((r) => ({ name: r.name, values: r.labels }));
  return { tables: [...tables.values()], enums };
}
