import type { ChatCopy, RequestContext } from '@mapi/contracts';
import { rowPhones, visiblePage, visibleRow, type ChatReachCheck } from './member-reach';
import { noReach } from './testing/no-reach';

/** Rows of chats c0..c(n-1) on phone p1, every third one (c0, c3, …) within the member's reach. */
const rows = Array.from({ length: 250 }, (_, i) => ({ id: i, phone_id: 'p1', chat_id: `c${i}` }));
const fetch = (calls: number[][]) => async (offset: number, limit: number) => {
  calls.push([offset, limit]);
  return rows.slice(offset, offset + limit);
};
const check = (asked: ChatCopy[][]): ChatReachCheck => ({
  reached: async (_ctx, copies) => {
    asked.push(copies);
    return new Set(copies.filter((c) => Number(c.chat_id.slice(1)) % 3 === 0).map((c) => `${c.phone_id}\u0000${c.chat_id}`));
  },
});
const base: RequestContext = {
  org_id: '00000000-0000-4000-8000-000000000001',
  token_id: '00000000-0000-4000-8000-000000000002',
  phone_scope: ['p1'],
  phone: null,
};
const member = (role: 'member' | 'admin' | 'owner'): RequestContext => ({
  ...base,
  member: {
    member_id: '00000000-0000-4000-8000-000000000003',
    session_id: '00000000-0000-4000-8000-000000000004',
    email: 'amy@example.com',
    role,
    label_ids: ['vip'],
  },
});

describe("a member's reach over the inbox's rows", () => {
  it('pages over the rows within reach only, one check per batch read, skipping `offset` of them', async () => {
    const calls: number[][] = [];
    const asked: ChatCopy[][] = [];
    const page = await visiblePage(check(asked), member('member'), fetch(calls), 10, 20);
    expect(page.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => (10 + i) * 3));
    expect(calls).toEqual([[0, 100]]);
    expect(asked).toHaveLength(1);
    const tail = await visiblePage(check([]), member('member'), fetch([]), 80, 50);
    expect(tail.map((r) => r.id)).toEqual([240, 243, 246, 249]);
  });

  it('reads further batches until the page is full or the rows run out', async () => {
    const calls: number[][] = [];
    const page = await visiblePage(check([]), member('member'), fetch(calls), 0, 60);
    expect(page).toHaveLength(60);
    expect(calls).toEqual([
      [0, 120],
      [120, 120],
    ]);
  });

  it("tokens, owners and admins: the inbox's own page as before, the chats service never asked", async () => {
    for (const c of [base, member('admin'), member('owner')]) {
      const calls: number[][] = [];
      expect((await visiblePage(noReach, c, fetch(calls), 5, 3)).map((r) => r.id)).toEqual([5, 6, 7]);
      expect(calls).toEqual([[5, 3]]);
      expect(await visibleRow(noReach, c, rows[1])).toBe(rows[1]);
      expect(rowPhones(c)).toEqual(['p1']);
    }
  });

  it("one row: out of reach is null (answered as missing); a to-do of no chat follows the member's phones", async () => {
    const c = member('member');
    expect(await visibleRow(check([]), c, rows[3])).toBe(rows[3]);
    expect(await visibleRow(check([]), c, rows[4])).toBeNull();
    expect(await visibleRow(check([]), c, null)).toBeNull();
    expect(await visibleRow(noReach, c, { phone_id: null, chat_id: null })).not.toBeNull();
    expect(await visibleRow(noReach, c, { phone_id: 'p2', chat_id: null })).toBeNull();
    expect(rowPhones(c)).toBeNull();
  });
});
