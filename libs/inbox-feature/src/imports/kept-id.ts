import { randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids a uuid column takes. */
export const uuidId = (id: string | null | undefined): id is string => !!id && UUID.test(id);
/** Ids a text id column takes (notes: a note's id is its message_id, any string up to 200). */
export const textId = (id: string | null | undefined): id is string => !!id && id.length <= 200;

/** The Prisma delegate calls an import makes on one of the inbox's tables. */
export interface KeptIdTable<Row> {
  findFirst(args: { where: Record<string, unknown> }): Promise<Row | null>;
  count(args: { where: Record<string, unknown> }): Promise<number>;
}

export interface KeptIds {
  source_id: string;
  target_id?: string | null;
}

/**
 * The row of this organization an item names (docs/services/inbox.md "Import"): the id map's
 * `target_id` when given, else the source's id. Another organization's row is never read.
 */
export function findKept<Row>(
  table: KeptIdTable<Row>,
  idField: string,
  orgId: string,
  ids: KeptIds,
  valid: (id: string) => boolean,
): Promise<Row | null> {
  const id = ids.target_id ?? ids.source_id;
  return valid(id) ? table.findFirst({ where: { org_id: orgId, [idField]: id } }) : Promise.resolve(null);
}

/**
 * The id a new row takes: the id map's target_id, else the source's id, when it is valid here and
 * no row (of any organization) has it; else a new uuid. Only the id's being taken is asked.
 */
export async function newKeptId(
  table: KeptIdTable<unknown>,
  idField: string,
  ids: KeptIds,
  valid: (id: string) => boolean,
): Promise<string> {
  const wanted = ids.target_id ?? ids.source_id;
  if (valid(wanted) && (await table.count({ where: { [idField]: wanted } })) === 0) return wanted;
  return randomUUID();
}

const stable = (v: unknown): unknown => {
  if (v instanceof Date) return v.toISOString();
  if (v === undefined) return null;
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, stable((v as Record<string, unknown>)[k])]),
    );
  return v;
};

/** The columns of `data` that differ from the row's (dates by instant, JSON by value whatever its key order). */
export function changedColumns<Row extends object>(row: Row, data: Record<string, unknown>): Record<string, unknown> {
  const r = row as Record<string, unknown>;
  return Object.fromEntries(Object.entries(data).filter(([k, v]) => JSON.stringify(stable(r[k])) !== JSON.stringify(stable(v))));
}

/** Equal as stored values: dates by instant, JSON by value whatever its key order. */
export const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(stable(a)) === JSON.stringify(stable(b));
