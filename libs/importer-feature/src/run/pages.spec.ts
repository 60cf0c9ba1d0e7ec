import { SourceError } from '../source/source-error';
import type { SourceClient } from '../source/source-client';
import { readArray, readPages } from './pages';

/** A source whose listing answers from `answer(offset, limit)` (null: 404). */
const sourceOf = (answer: (offset: number, limit: number) => unknown) => {
  const calls: { path: string; offset: number; limit: number }[] = [];
  const source = {
    get: async (path: string, query: Record<string, number> = {}) => {
      calls.push({ path, offset: query.offset, limit: query.limit });
      return answer(query.offset, query.limit);
    },
  } as unknown as SourceClient;
  return { source, calls };
};

describe('readPages', () => {
  it('reads pages until a short one, passing each with its offset', async () => {
    const items = Array.from({ length: 7 }, (_, i) => i);
    const { source, calls } = sourceOf((o, l) => ({ count: 7, things: items.slice(o, o + l) }));
    const seen: number[][] = [];
    expect(await readPages<number>(source, '/things', 'things', 3, async (page) => void seen.push(page))).toBe(7);
    expect(seen).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect(calls.map((c) => c.offset)).toEqual([0, 3, 6]);
  });

  it('starts where a resumed run stopped', async () => {
    const { source, calls } = sourceOf((o, l) => ({ count: 5, things: [0, 1, 2, 3, 4].slice(o, o + l) }));
    expect(await readPages<number>(source, '/things', 'things', 2, async () => undefined, { startAt: 2 })).toBe(3);
    expect(calls[0].offset).toBe(2);
  });

  it('answers null for a route the source does not have', async () => {
    const { source } = sourceOf(() => null);
    expect(await readPages(source, '/labels', 'labels', 10, async () => undefined)).toBeNull();
  });

  it('refuses a listing that keeps answering full pages past its count', async () => {
    const { source, calls } = sourceOf((_o, l) => ({ count: 4, things: Array.from({ length: l }, (_, i) => i) }));
    await expect(readPages(source, '/things', 'things', 2, async () => undefined, { maxItems: 4 })).rejects.toMatchObject({
      code: 'SOURCE_BAD_RESPONSE',
    });
    expect(calls.length).toBeLessThan(10);
  });

  it("refuses an answer without the listing's key", async () => {
    const { source } = sourceOf(() => ({ data: [] }));
    await expect(readPages(source, '/chats', 'chats', 2, async () => undefined)).rejects.toBeInstanceOf(SourceError);
  });
});

describe('readArray', () => {
  it('reads a list, null on 404, refuses anything else', async () => {
    expect(await readArray(sourceOf(() => [1, 2]).source, '/webhooks')).toEqual([1, 2]);
    expect(await readArray(sourceOf(() => null).source, '/webhooks')).toBeNull();
    await expect(readArray(sourceOf(() => ({ phones: [] })).source, '/phones/all')).rejects.toMatchObject({
      code: 'SOURCE_NOT_HOSTED_API',
    });
  });
});
