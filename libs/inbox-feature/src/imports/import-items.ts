import type { ImportItemResult } from '@mapi/contracts';
import type { z } from 'zod';

/** Why an item was refused, in one line: the first problem, with its field. */
export function itemReason(error: unknown): string {
  const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
  if (Array.isArray(issues) && issues.length) {
    const { path, message } = issues[0];
    return (path.length && !message.startsWith(String(path[0])) ? `${path.map(String).join('.')}: ${message}` : message).slice(0, 300);
  }
  return ((error as Error).message ?? String(error)).split('\n').slice(-1)[0].slice(0, 300);
}

/**
 * Runs each item of a batch through `one`, in order: an item that does not read as `schema`, or whose
 * `one` throws, is answered `failed` with why, and the batch goes on (a bad record never fails the batch).
 */
export async function eachItem<S extends z.ZodType>(
  items: readonly unknown[],
  schema: S,
  one: (item: z.infer<S>) => Promise<ImportItemResult>,
): Promise<ImportItemResult[]> {
  const results: ImportItemResult[] = [];
  for (const raw of items) {
    const sourceId =
      raw && typeof raw === 'object' && typeof (raw as { source_id?: unknown }).source_id === 'string'
        ? (raw as { source_id: string }).source_id
        : '';
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      results.push({ source_id: sourceId, target_id: null, outcome: 'failed', reason: itemReason(parsed.error) });
      continue;
    }
    try {
      results.push(await one(parsed.data));
    } catch (error) {
      results.push({ source_id: sourceId, target_id: null, outcome: 'failed', reason: itemReason(error) });
    }
  }
  return results;
}

/** A refusal of one item (its reason is the message). */
export class ItemRefused extends Error {}

export const date = (v: unknown): Date | null => {
  if (v instanceof Date) return v;
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v);
  if (typeof v !== 'string' || !v) return null;
  const at = new Date(v.includes(' ') && !v.includes('T') ? v.replace(' ', 'T') : v);
  return Number.isFinite(at.getTime()) ? at : null;
};
export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
export const record = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
