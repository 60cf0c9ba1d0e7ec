import type { SourceClient } from '../source/source-client';
import { SourceError } from '../source/source-error';

/**
 * Reads an offset/limit listing of the source page by page (`{count, <key>: [...]}` as our routes and
 * the hosted API answer), calling `each` per page. Null when the source does not have the route
 * (404). Stops at the page that comes back short, and refuses a listing that never ends: more pages
 * than its own count allows, or a page that is not the listing's shape.
 */
export async function readPages<T>(
  source: SourceClient,
  path: string,
  key: string,
  limit: number,
  each: (items: T[], offset: number) => Promise<void>,
  options: { query?: Record<string, string | number | undefined>; startAt?: number; maxItems?: number } = {},
): Promise<number | null> {
  let offset = options.startAt ?? 0;
  let total = 0;
  let count: number | null = null;
  for (let pages = 0; ; pages++) {
    const page = await source.get<Record<string, unknown>>(path, { ...options.query, offset, limit });
    if (page === null) return offset === (options.startAt ?? 0) ? null : total;
    const items = page[key];
    if (!Array.isArray(items))
      throw new SourceError('SOURCE_NOT_HOSTED_API', `GET ${path} answered without its "${key}" list: is --from the hosted API?`);
    if (typeof page.count === 'number') count = page.count;
    const ceiling = Math.max(count ?? 0, options.maxItems ?? 10_000_000);
    if (pages * limit > ceiling + limit * 2)
      throw new SourceError(
        'SOURCE_BAD_RESPONSE',
        `GET ${path} kept answering full pages past its count (${count}): a listing that never ends`,
      );
    if (items.length) await each(items as T[], offset);
    total += items.length;
    offset += items.length;
    if (items.length < limit) return total;
  }
}

/** A listing answered as a plain array (GET /phones/all, GET /webhooks); null on 404. */
export async function readArray<T>(source: SourceClient, path: string): Promise<T[] | null> {
  const answer = await source.get<unknown>(path);
  if (answer === null) return null;
  if (!Array.isArray(answer))
    throw new SourceError('SOURCE_NOT_HOSTED_API', `GET ${path} did not answer a list: is --from the hosted API?`);
  return answer as T[];
}
