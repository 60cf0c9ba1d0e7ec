import { randomUUID } from 'node:crypto';
import type { ImportItemResult } from '@mapi/contracts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The Prisma delegate calls an import makes on one of the inbox's tables. */
export interface KeptIdTable {
  findFirst(args: { where: Record<string, unknown> }): Promise<Record<string, unknown> | null>;
  count(args: { where: Record<string, unknown> }): Promise<number>;
  create(args: { data: Record<string, unknown> }): Promise<unknown>;
  update(args: { where: Record<string, unknown>; data: Record<string, unknown> }): Promise<unknown>;
}

export interface KeptIdRecord {
  source_id: string;
  target_id?: string;
  /** The row's columns as the source has them (not the id, not org_id). */
  data: Record<string, unknown>;
  /** Another way the record may already be here (labels: type and name). */
  natural?: Record<string, unknown>;
}

const same = (row: Record<string, unknown>, data: Record<string, unknown>) =>
  Object.entries(data).every(([k, v]) => JSON.stringify(normalize(row[k])) === JSON.stringify(normalize(v)));
const normalize = (v: unknown) => (v instanceof Date ? v.toISOString() : v === undefined ? null : v);

/**
 * One record of an import into a table whose id the inbox makes: the row of this organization that
 * the id map (target_id), the source's id or the natural key names is updated (or left when equal);
 * otherwise a new row takes the source's id when it is a free uuid, else a new one. Another
 * organization's row is never read past its id being taken.
 */
export async function upsertKeptId(table: KeptIdTable, idField: string, orgId: string, r: KeptIdRecord, uuidIds = true): Promise<ImportItemResult> {
  const valid = (id: string | undefined): id is string => !!id && (!uuidIds || UUID.test(id));
  const ids = [r.target_id, r.source_id].filter(valid);
  let here = ids.length ? await table.findFirst({ where: { org_id: orgId, [idField]: { in: ids } } }) : null;
  if (!here && r.natural) here = await table.findFirst({ where: { org_id: orgId, ...r.natural } });
  if (here) {
    const id = String(here[idField]);
    if (same(here, r.data)) return { source_id: r.source_id, target_id: id, outcome: 'skipped' };
    await table.update({ where: { [idField]: id }, data: r.data });
    return { source_id: r.source_id, target_id: id, outcome: 'updated' };
  }
  const wanted = [r.target_id, r.source_id].find((id) => valid(id));
  const free = wanted !== undefined && (await table.count({ where: { [idField]: wanted } })) === 0;
  const id = free ? wanted : randomUUID();
  await table.create({ data: { ...r.data, ...(r.natural ?? {}), [idField]: id, org_id: orgId } });
  return { source_id: r.source_id, target_id: id, outcome: 'created' };
}

/** Runs each item through `one`, a thrown error failing that item alone with its message. */
export async function eachItem(items: readonly unknown[], one: (raw: Record<string, unknown>, sourceId: string) => Promise<ImportItemResult>): Promise<ImportItemResult[]> {
  const results: ImportItemResult[] = [];
  for (const raw of items) {
    const item = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const sourceId = typeof item.source_id === 'string' ? item.source_id : '';
    if (!sourceId) {
      results.push({ source_id: '', target_id: null, outcome: 'failed', reason: 'source_id is missing' });
      continue;
    }
    try {
      results.push(await one(item, sourceId));
    } catch (error) {
      results.push({ source_id: sourceId, target_id: null, outcome: 'failed', reason: (error as Error).message.split('\n').slice(-1)[0].slice(0, 300) });
    }
  }
  return results;
}

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const date = (v: unknown): Date | null => (typeof v === 'string' && Number.isFinite(Date.parse(v)) ? new Date(v) : null);
export const int = (v: unknown, def: number): number => (typeof v === 'number' && Number.isInteger(v) ? v : def);
