import type { DmmfDatamodel, DmmfEnum, DmmfField, DmmfModel } from './dmmf';
import {
  canonicalDefault,
  canonicalLiteral,
  defaultConstraintName,
  type ColumnShape,
  type ForeignKeyShape,
  type IndexShape,
  type SchemaShape,
  type TableShape,
} from './shape';
import { readSchemaText, type SchemaTextFacts } from './schema-text';

/**
 * The Postgres schema Prisma Migrate would create for a datamodel: table and column names
 * (@@map/@map), column types (scalar defaults and @db native types), nullability (scalar lists are
 * nullable columns, as Prisma creates them), defaults, primary keys, unique and plain indexes
 * (Prisma's default names or `map:`), foreign keys with Prisma's default referential actions,
 * enums. `schemaText` supplies what DMMF leaves out: Unsupported("...") fields, `@relation(map:)`
 * and `relationMode = "prisma"`.
 */
export function expectedShape(datamodel: DmmfDatamodel, schemaText: string): SchemaShape {
  const facts = readSchemaText(schemaText);
  const enums = new Map(datamodel.enums.map((e) => [e.name, e]));
  const tableOf = new Map(datamodel.models.map((m) => [m.name, m.dbName ?? m.name]));
  const columnOf = (model: DmmfModel, field: string): string => {
    const scalar = model.fields.find((f) => f.name === field);
    if (scalar) return scalar.dbName ?? scalar.name;
    return facts.unsupported.get(model.name)?.find((u) => u.field === field)?.column ?? field;
  };

  const tables: TableShape[] = datamodel.models.map((model) => {
    const table = tableOf.get(model.name) ?? model.name;
    const columns: ColumnShape[] = model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum').map((f) => scalarColumn(f, enums));
    for (const u of facts.unsupported.get(model.name) ?? []) {
      columns.push({
        name: u.column,
        type: u.list ? `${u.type}[]` : u.type,
        notNull: !u.optional && !u.list,
        default: u.dbgenerated === null ? null : canonicalDefault(u.dbgenerated, u.type),
      });
    }
    const tableShape: TableShape = { name: table, columns, primaryKey: null, indexes: [], foreignKeys: [] };
    for (const index of datamodel.indexes.filter((i) => i.model === model.name)) {
      const cols = index.fields.map((f) => columnOf(model, f.name));
      if (index.type === 'id') {
        tableShape.primaryKey = { name: index.dbName ?? defaultConstraintName(table, cols, 'pkey'), columns: cols };
        continue;
      }
      if (index.type === 'fulltext') continue; // MySQL only
      const unique = index.type === 'unique';
      const shape: IndexShape = {
        name: index.dbName ?? defaultConstraintName(table, cols, unique ? 'key' : 'idx'),
        unique,
        method: (index.algorithm ?? 'BTree').toLowerCase(),
        where: null,
        columns: index.fields.map((f, i) => {
          const opclass = f.operatorClass ? ` ${operatorClassName(f.operatorClass)}` : '';
          return `${cols[i]}${opclass}${f.sortOrder === 'desc' ? ' DESC' : ''}`;
        }),
      };
      tableShape.indexes.push(shape);
    }
    if (!facts.relationModePrisma) {
      for (const relation of model.fields.filter((f) => f.kind === 'object' && (f.relationFromFields?.length ?? 0) > 0)) {
        tableShape.foreignKeys.push(foreignKey(model, relation, datamodel, tableOf, columnOf, facts));
      }
    }
    return tableShape;
  });

  return {
    tables,
    enums: datamodel.enums.map((e) => ({ name: e.dbName ?? e.name, values: e.values.map((v) => v.dbName ?? v.name) })),
  };
}

function scalarColumn(field: DmmfField, enums: Map<string, DmmfEnum>): ColumnShape {
  const enumDef = field.kind === 'enum' ? enums.get(field.type) : undefined;
  const base = enumDef ? (enumDef.dbName ?? enumDef.name) : scalarType(field);
  return {
    name: field.dbName ?? field.name,
    type: field.isList ? `${base}[]` : base,
    notNull: field.isRequired && !field.isList,
    default: expectedDefault(field, base, enumDef),
  };
}

/** Column type as format_type() prints it, for Prisma's scalar types and @db native types. */
export function scalarType(field: Pick<DmmfField, 'type' | 'nativeType'>): string {
  const [native, args] = field.nativeType ?? [null, []];
  const p = args.length > 0 ? `(${args.join(',')})` : '';
  switch (native) {
    case null:
      return SCALAR_DEFAULTS[field.type] ?? field.type.toLowerCase();
    case 'Text':
      return 'text';
    case 'Char':
      return `character${p}`;
    case 'VarChar':
      return `character varying${p}`;
    case 'Bit':
      return `bit${p}`;
    case 'VarBit':
      return `bit varying${p}`;
    case 'Uuid':
      return 'uuid';
    case 'Xml':
      return 'xml';
    case 'Inet':
      return 'inet';
    case 'Citext':
      return 'citext';
    case 'Boolean':
      return 'boolean';
    case 'Integer':
      return 'integer';
    case 'SmallInt':
      return 'smallint';
    case 'Oid':
      return 'oid';
    case 'BigInt':
      return 'bigint';
    case 'Real':
      return 'real';
    case 'DoublePrecision':
      return 'double precision';
    case 'Decimal':
      return `numeric${p || '(65,30)'}`;
    case 'Money':
      return 'money';
    case 'Timestamp':
      return `timestamp${p} without time zone`;
    case 'Timestamptz':
      return `timestamp${p} with time zone`;
    case 'Date':
      return 'date';
    case 'Time':
      return `time${p} without time zone`;
    case 'Timetz':
      return `time${p} with time zone`;
    case 'Json':
      return 'json';
    case 'JsonB':
      return 'jsonb';
    case 'ByteA':
      return 'bytea';
    default:
      return native.toLowerCase() + p;
  }
}

const SCALAR_DEFAULTS: Record<string, string> = {
  String: 'text',
  Boolean: 'boolean',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Decimal: 'numeric(65,30)',
  DateTime: 'timestamp(3) without time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};

function expectedDefault(field: DmmfField, base: string, enumDef?: DmmfEnum): string | null {
  const value = field.default;
  if (value === undefined) return null;
  const literal = (v: string | number | boolean): string => {
    const mapped = enumDef ? (enumDef.values.find((e) => e.name === v)?.dbName ?? String(v)) : String(v);
    return canonicalLiteral(mapped, base);
  };
  if (Array.isArray(value)) {
    return `ARRAY[${value.map(literal).join(', ')}]`;
  }
  if (typeof value !== 'object') return literal(value);
  switch (value.name) {
    case 'now':
      return 'CURRENT_TIMESTAMP';
    case 'autoincrement':
      return 'autoincrement()';
    case 'dbgenerated':
      return value.args.length > 0 ? canonicalDefault(String(value.args[0]), base) : null;
    default:
      return null; // uuid(), cuid(), nanoid(), ulid(): generated by the client, no database default
  }
}

/** Prisma's operator class names (JsonbPathOps) to Postgres' (jsonb_path_ops); raw("...") kept as is. */
function operatorClassName(name: string): string {
  return /^[A-Z]/.test(name) ? name.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_').toLowerCase() : name;
}

const ACTIONS: Record<string, string> = {
  Cascade: 'CASCADE',
  Restrict: 'RESTRICT',
  NoAction: 'NO ACTION',
  SetNull: 'SET NULL',
  SetDefault: 'SET DEFAULT',
};

function foreignKey(
  model: DmmfModel,
  relation: DmmfField,
  datamodel: DmmfDatamodel,
  tableOf: Map<string, string>,
  columnOf: (model: DmmfModel, field: string) => string,
  facts: SchemaTextFacts,
): ForeignKeyShape {
  const table = tableOf.get(model.name) ?? model.name;
  const target = datamodel.models.find((m) => m.name === relation.type);
  const columns = (relation.relationFromFields ?? []).map((f) => columnOf(model, f));
  return {
    name: facts.relationMaps.get(`${model.name}.${relation.name}`) ?? defaultConstraintName(table, columns, 'fkey'),
    columns,
    referencedTable: tableOf.get(relation.type) ?? relation.type,
    referencedColumns: (relation.relationToFields ?? []).map((f) => (target ? columnOf(target, f) : f)),
    onDelete: ACTIONS[relation.relationOnDelete ?? (relation.isRequired ? 'Restrict' : 'SetNull')] ?? 'RESTRICT',
    onUpdate: ACTIONS[relation.relationOnUpdate ?? 'Cascade'] ?? 'CASCADE',
  };
}
