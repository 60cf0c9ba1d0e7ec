import type { ImportBatchResponse, ImportItemResult, PhoneDirectory } from '@mapi/contracts';
import type { z } from 'zod';

/** An item that passed its schema, with its place in the batch. */
export interface ValidItem<T> {
  index: number;
  item: T;
}

/** A batch's answer being built: one slot per item, in order (failed ones filled at once). */
export type Results = (ImportItemResult | null)[];

const sourceIdOf = (raw: unknown): string => {
  const id = raw && typeof raw === 'object' ? (raw as { source_id?: unknown }).source_id : undefined;
  return typeof id === 'string' ? id : '';
};

/** `<path>: <message>` of an item's first schema issue. */
function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/**
 * Validates each item of a batch on its own: a bad one is answered failed with why, the others go on
 * (a strict batch schema would refuse the whole request for one bad record).
 */
export function validateItems<S extends z.ZodType>(
  items: readonly unknown[],
  schema: S,
): { valid: ValidItem<z.infer<S>>[]; results: Results } {
  const results: Results = items.map(() => null);
  const valid: ValidItem<z.infer<S>>[] = [];
  items.forEach((raw, index) => {
    const parsed = schema.safeParse(raw);
    if (parsed.success) valid.push({ index, item: parsed.data });
    else results[index] = failed(sourceIdOf(raw), reasonOf(parsed.error));
  });
  return { valid, results };
}

export const failed = (source_id: string, reason: string): ImportItemResult => ({ source_id, target_id: null, outcome: 'failed', reason });

/** Every slot filled (a slot left empty would be a bug of the use case: it answers failed rather than nothing). */
export function answer(results: Results, items: readonly unknown[]): { results: ImportItemResult[] } {
  return { results: results.map((r, i) => r ?? failed(sourceIdOf(items[i]), 'not written')) };
}

/**
 * The organization's phones among those named (phone_id → its number, null while unknown), from the
 * phones service's directory: an item naming a phone of another organization, a deleted or unknown
 * one, is answered failed and writes nothing.
 */
export async function phonesOfOrg(
  directory: PhoneDirectory,
  orgId: string,
  phoneIds: Iterable<string>,
): Promise<Map<string, string | null>> {
  const ids = [...new Set(phoneIds)];
  if (!ids.length) return new Map();
  const entries = await directory({ org_id: orgId, phone_ids: ids, connected: false });
  return new Map(entries.map((e) => [e.phone_id, e.org_phone]));
}

export const notOurPhone = (phoneId: string) => `phone ${phoneId} is not a phone of this organization`;

/** JSON with object keys sorted at every depth (jsonb answers keys in its own order). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

/** Equal as JSON whatever the order of object keys. */
export const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

interface ErrorShape {
  code?: unknown;
  message?: unknown;
  originalCode?: unknown;
  originalMessage?: unknown;
  meta?: { code?: unknown; message?: unknown; driverAdapterError?: { cause?: ErrorShape } };
  cause?: unknown;
}

/**
 * The SQLSTATE and message of a database refusal of the data itself (class 22 data exception, 23
 * integrity constraint, 54 program limit such as an index row too large), through Prisma's wrappings;
 * null for anything else (a lost connection, a bug), which fails the batch as any error does.
 */
export function dataRefusal(error: unknown, depth = 0): string | null {
  if (!error || typeof error !== 'object' || depth > 5) return null;
  const e = error as ErrorShape;
  for (const [code, message] of [
    [e.meta?.code, e.meta?.message],
    [e.originalCode, e.originalMessage],
    [e.code, e.message],
  ]) {
    if (typeof code === 'string' && /^(22|23|54)[0-9A-Z]{3}$/.test(code))
      return `${code} ${typeof message === 'string' ? message : ''}`.trim();
  }
  return dataRefusal(e.meta?.driverAdapterError?.cause, depth + 1) ?? dataRefusal(e.cause, depth + 1);
}

/**
 * Runs a batch's write; when the database refuses its data (one item with a NUL character, an
 * out-of-range date), runs each half on its own, down to the item at fault, which is answered failed
 * with the database's reason while the rest lands. Items are validated before; this is the net for
 * what only the database tells.
 */
export async function writeInHalves(
  items: readonly unknown[],
  write: (items: readonly unknown[]) => Promise<ImportBatchResponse>,
): Promise<ImportBatchResponse> {
  try {
    return await write(items);
  } catch (error) {
    const refusal = dataRefusal(error);
    if (refusal === null) throw error;
    if (items.length === 1) return { results: [failed(sourceIdOf(items[0]), `refused by the database: ${refusal}`)] };
    const half = Math.ceil(items.length / 2);
    const [a, b] = [await writeInHalves(items.slice(0, half), write), await writeInHalves(items.slice(half), write)];
    return { results: [...a.results, ...b.results] };
  }
}
