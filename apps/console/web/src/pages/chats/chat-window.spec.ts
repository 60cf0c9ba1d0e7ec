import type { Chat } from '../../api/types';
import { ROW_HEIGHT, comesAfter, scrollToShow, visibleRange, withHead, withPage } from './chat-window';

const chat = (id: string, at: number | null, created = '2026-01-01T00:00:00.000Z'): Chat => ({
  chat_id: `${id}@c.us`,
  org_phone: '447700900001@c.us',
  latest_message_timestamp: at,
  created_at: created,
});
const ids = (list: Chat[]) => list.map((c) => c.chat_id.replace('@c.us', ''));

describe('the chat list window', () => {
  it('renders the rows in sight and a few around them, never past either end', () => {
    expect(visibleRange(0, 600, 50_000)).toEqual([0, Math.ceil(600 / ROW_HEIGHT) + 8]);
    expect(visibleRange(ROW_HEIGHT * 1000, 600, 50_000)).toEqual([992, 1000 + Math.ceil(600 / ROW_HEIGHT) + 8]);
    expect(visibleRange(ROW_HEIGHT * 49_999, 600, 50_000)).toEqual([49_991, 50_000]);
    expect(visibleRange(0, 600, 3)).toEqual([0, 3]);
    expect(visibleRange(-50, 0, 0)).toEqual([0, 0]);
    expect(visibleRange(10 ** 9, 600, 10)).toEqual([10, 10]);
  });

  it('scrolls the least to show a row, and not at all when it shows', () => {
    expect(scrollToShow(0, 0, 600)).toBeNull();
    expect(scrollToShow(20, 0, 600)).toBe(21 * ROW_HEIGHT - 600);
    expect(scrollToShow(2, 10 * ROW_HEIGHT, 600)).toBe(2 * ROW_HEIGHT);
  });

  it('orders as GET /chats: activity (else creation) then chat_id, descending', () => {
    expect(comesAfter(chat('a', 1000), chat('b', 2000))).toBe(true);
    expect(comesAfter(chat('b', 2000), chat('a', 2000))).toBe(false);
    expect(comesAfter(chat('a', 2000), chat('b', 2000))).toBe(true);
    expect(comesAfter(chat('n', null, '1970-01-01T00:00:01.000Z'), chat('m', 999))).toBe(false);
  });

  it('joins a first page read again to the pages loaded below it, none twice, a moved chat at its new place', () => {
    const loaded = [chat('e', 900), chat('d', 800), chat('c', 700), chat('b', 600), chat('a', 500)];
    // b got a message: it is in the new first page; the pages below keep what comes after the page's last row.
    const head = [chat('b', 1000), chat('e', 900), chat('d', 800)];
    expect(ids(withHead(loaded, head, false))).toEqual(['b', 'e', 'd', 'c', 'a']);
    // the first page is the whole list: nothing else is kept (a chat that left the filter is gone)
    expect(ids(withHead(loaded, head, true))).toEqual(['b', 'e', 'd']);
    expect(withHead(loaded, [], false)).toEqual([]);
  });

  it('appends a further page without repeating a chat the list holds', () => {
    const loaded = [chat('z', 2000), chat('c', 700)];
    expect(ids(withPage(loaded, [chat('c', 700), chat('b', 600)]))).toEqual(['z', 'c', 'b']);
  });
});
