/**
 * A database schema reduced to what Prisma's schema describes, in one normalised form, built
 * either from the Prisma schema (expected.ts) or from a live database (introspect.ts), so the two
 * can be compared (compare.ts).
 */
export interface SchemaShape {
  tables: TableShape[];
  enums: EnumShape[];
}

export interface TableShape {
  name: string;
  columns: ColumnShape[];
  primaryKey: ConstraintShape | null;
  /** Unique and non-unique indexes (a unique constraint appears as its unique index). */
  indexes: IndexShape[];
  foreignKeys: ForeignKeyShape[];
}

export interface ColumnShape {
  name: string;
  /** As Postgres' format_type() prints it: `text`, `timestamp(3) with time zone`, `text[]`, `"kinds"` unquoted. */
  type: string;
  notNull: boolean;
  /** Canonical default (see canonicalDefault), null when there is none. */
  default: string | null;
}

export interface ConstraintShape {
  name: string;
  columns: string[];
}

export interface IndexShape extends ConstraintShape {
  unique: boolean;
  /** btree, hash, gin, gist, spgist, brin, ... */
  method: string;
  /** Index predicate of a partial index, null otherwise. */
  where: string | null;
}

export interface ForeignKeyShape extends ConstraintShape {
  referencedTable: string;
  referencedColumns: string[];
  /** CASCADE, RESTRICT, NO ACTION, SET NULL, SET DEFAULT */
  onDelete: string;
  onUpdate: string;
}

export interface EnumShape {
  name: string;
  values: string[];
}

/** Postgres' identifier length limit (NAMEDATALEN - 1). */
const MAX_IDENTIFIER = 63;

/**
 * Prisma's default constraint name: `<table>_<columns>_<suffix>`, the prefix cut so the whole fits
 * in 63 bytes (suffix pkey: `<table>_pkey`).
 */
export function defaultConstraintName(table: string, columns: string[], suffix: 'pkey' | 'key' | 'idx' | 'fkey'): string {
  const prefix = suffix === 'pkey' ? table : [table, ...columns].join('_');
  const tail = `_${suffix}`;
  const room = MAX_IDENTIFIER - tail.length;
  return (Buffer.byteLength(prefix) > room ? truncateBytes(prefix, room) : prefix) + tail;
}

function truncateBytes(text: string, maxBytes: number): string {
  let out = '';
  for (const char of text) {
    if (Buffer.byteLength(out + char) > maxBytes) break;
    out += char;
  }
  return out;
}

/**
 * Canonical text of a column default, applied to Postgres' pg_get_expr() output and to the SQL
 * Prisma would render, so equal defaults compare equal: casts dropped, literals unquoted, JSON
 * re-serialised with sorted keys, numbers and timestamps normalised.
 */
export function canonicalDefault(expression: string | null, columnType: string): string | null {
  if (expression === null) return null;
  const text = stripCasts(expression.trim());
  const literal = /^'((?:[^']|'')*)'$/.exec(text);
  const base = columnType.replace(/\[\]$/, '');
  if (literal) return canonicalLiteral(literal[1].replace(/''/g, "'"), base);
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text)) return canonicalLiteral(text, base);
  if (/^(true|false)$/i.test(text)) return text.toLowerCase();
  if (/^nextval\(/i.test(text)) return 'autoincrement()';
  if (/^ARRAY\[/i.test(text)) return text.replace(/\s+/g, ' ');
  if (/^(current_timestamp|now\(\))$/i.test(text)) return 'CURRENT_TIMESTAMP';
  return text.replace(/\s+/g, ' ');
}

/** Canonical form of a literal default value given the column's base type. */
export function canonicalLiteral(value: string, baseType: string): string {
  if (baseType === 'json' || baseType === 'jsonb') {
    try {
      return `'${stableJson(JSON.parse(value))}'`;
    } catch {
      return `'${value}'`;
    }
  }
  if (/^(smallint|integer|bigint|real|double precision|numeric)/.test(baseType) && /^-?[\d.]+(e[+-]?\d+)?$/i.test(value)) {
    return /^-?\d+$/.test(value) ? BigInt(value).toString() : String(Number(value));
  }
  if (/^(timestamp|date)/.test(baseType)) {
    const dateOnly = /^\d{4}-\d\d-\d\d$/.test(value);
    const zoned = /\d\d:\d\d(:\d\d(\.\d+)?)?\s*([zZ]|[+-]\d\d(:?\d\d)?)$/.test(value);
    const utc = dateOnly ? `${value}T00:00:00Z` : zoned ? value : `${value}Z`;
    const iso = utc
      .replace(' ', 'T')
      .replace(/ ([+-])/, '$1')
      .replace(/([+-]\d\d)(\d\d)$/, '$1:$2')
      .replace(/([+-]\d\d)$/, '$1:00');
    const time = Date.parse(iso);
    if (!Number.isNaN(time)) return `'${new Date(time).toISOString()}'`;
  }
  if (baseType === 'boolean') return value.toLowerCase();
  return `'${value}'`;
}

function stripCasts(expression: string): string {
  return expression.replace(
    /::(?:"(?:[^"]|"")+"|[a-z_][a-z0-9_]*(?: varying| precision)?)(?:\([\d, ]*\))?(?: with(?:out)? time zone)?(?:\[\])*/gi,
    '',
  );
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
