import type { Chat } from '../../api/types';
import { lastActivity } from './chats-view';

/**
 * The chat list's window over a long list (issue 33: 50,000 chats): which rows are in the document,
 * and how a re-read first page joins the pages already loaded by cursor. Pure, so it is unit-tested.
 */

/** Each row's height in pixels (styles.css `.chat-list li` holds it: rows never grow). */
export const ROW_HEIGHT = 76;
/** Rows kept in the document above and below the visible ones (smooth scrolling, keyboard moves). */
export const OVERSCAN = 8;
/** Rows from the end of the loaded ones at which the next page is asked for. */
export const PREFETCH_ROWS = 30;

/** The rows to render: [start, end) of `count`, for a scroller at `scrollTop` showing `height` pixels. */
export function visibleRange(scrollTop: number, height: number, count: number, row = ROW_HEIGHT, overscan = OVERSCAN): [number, number] {
  if (count <= 0) return [0, 0];
  const first = Math.floor(Math.max(0, scrollTop) / row);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(height, row)) / row);
  return [Math.max(0, Math.min(first - overscan, count)), Math.min(count, last + overscan)];
}

/** The scrollTop that brings row `index` into sight (the least move), or null when it is in sight already. */
export function scrollToShow(index: number, scrollTop: number, height: number, row = ROW_HEIGHT): number | null {
  const top = index * row;
  if (top < scrollTop) return top;
  if (top + row > scrollTop + height) return top + row - height;
  return null;
}

/** The list's order, as GET /chats sorts: activity (newest message, else creation) then chat_id, both descending. */
function orderKey(chat: Chat): [number, string] {
  return [lastActivity(chat) ?? (chat.created_at ? Date.parse(chat.created_at) : 0), chat.chat_id];
}

/** Whether `a` comes after `b` in the list. */
export function comesAfter(a: Chat, b: Chat): boolean {
  const [ta, ia] = orderKey(a);
  const [tb, ib] = orderKey(b);
  return ta < tb || (ta === tb && ia < ib);
}

/**
 * A first page read again (live updates) joined to the pages loaded further down: the new first page,
 * then the loaded chats that come after its last row and are not in it. `complete`: the first page
 * is the whole list (shorter than the limit), so nothing else is kept.
 */
export function withHead(loaded: readonly Chat[], head: readonly Chat[], complete: boolean): Chat[] {
  if (complete || head.length === 0) return [...head];
  const inHead = new Set(head.map((c) => c.chat_id));
  const last = head[head.length - 1];
  return [...head, ...loaded.filter((c) => !inHead.has(c.chat_id) && comesAfter(c, last))];
}

/** A further page appended: chats the list already holds (moved up meanwhile) are not repeated. */
export function withPage(loaded: readonly Chat[], page: readonly Chat[]): Chat[] {
  const held = new Set(loaded.map((c) => c.chat_id));
  return [...loaded, ...page.filter((c) => !held.has(c.chat_id))];
}
