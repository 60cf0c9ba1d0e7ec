import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from '../../app/Link';
import type { Chat, Label } from '../../api/types';
import {
  assigneeShort,
  breachTitle,
  chatHeading,
  chatLabels,
  chatsPagePath,
  chipBackground,
  NO_FILTERS,
  chipTextColor,
  lastActivity,
  shortTime,
  unreadOf,
  type BreachMark,
  type ChatFilters,
} from './chats-view';
import { PREFETCH_ROWS, ROW_HEIGHT, scrollToShow, visibleRange } from './chat-window';

/** One chat's page, with no list filters (links from other pages). */
export const chatPath = (chat: Pick<Chat, 'chat_id' | 'org_phone'>): string => chatsPagePath(NO_FILTERS, chat);

/**
 * The chats, most recent first; the open one is marked. Each row: name (a one-to-one chat's number beside
 * it, chatHeading), time of the last message, its text, unread count, assignee, labels, and the flagged, open-ticket and "SLA breached" markers. Links keep the
 * list's filters. Windowed (issue 33: 50,000 chats): only the rows in sight and a few around them are
 * in the document, each ROW_HEIGHT high (chat-window.ts); near the end of the loaded rows the next
 * page is asked for (`loadMore`).
 */
export function ChatList(props: {
  chats: Chat[];
  openId?: string;
  filters: ChatFilters;
  labels: ReadonlyMap<string, Label>;
  openTickets: ReadonlySet<string> | null;
  /** Chats breaching an SLA now, by chat id (null: not known, e.g. no analytics service). */
  breaches?: ReadonlyMap<string, BreachMark> | null;
  filtered: boolean;
  hasMore: boolean;
  loadMore: () => void;
}) {
  const { chats, openId, filters, labels, openTickets, breaches, hasMore, loadMore } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 600 });
  const measure = useCallback(() => {
    const el = scroller.current;
    if (el) setView((v) => (v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight }));
  }, []);
  useLayoutEffect(() => {
    measure();
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const seen = new ResizeObserver(measure);
    seen.observe(el);
    return () => seen.disconnect();
  }, [measure, chats.length === 0]);
  // The open chat stays in sight in the list (opened with j / k further down); not again as rows move.
  const openIndex = openId ? chats.findIndex((c) => c.chat_id === openId) : -1;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || openIndex < 0) return;
    const to = scrollToShow(openIndex, el.scrollTop, el.clientHeight);
    if (to !== null) el.scrollTop = to;
    measure();
  }, [openId, openIndex >= 0, measure]);
  const [start, end] = visibleRange(view.top, view.height, chats.length);
  useEffect(() => {
    if (hasMore && end >= chats.length - PREFETCH_ROWS) loadMore();
  }, [hasMore, end, chats.length, loadMore]);
  if (chats.length === 0) return <p role="status">{props.filtered ? 'No chat matches these filters.' : 'No chats yet.'}</p>;
  const now = new Date();
  return (
    <div className="chat-scroll" ref={scroller} onScroll={measure}>
      <ul className="chat-list" aria-label="Chats" style={{ height: chats.length * ROW_HEIGHT }}>
        {chats.slice(start, end).map((chat, k) => (
          <ChatRow
            key={chat.chat_id}
            chat={chat}
            at={start + k}
            size={hasMore ? -1 : chats.length}
            open={chat.chat_id === openId}
            filters={filters}
            labels={labels}
            openTicket={!!openTickets?.has(chat.chat_id)}
            breach={breaches?.get(chat.chat_id)}
            now={now}
          />
        ))}
      </ul>
      {hasMore && (
        <p role="status" className="muted chat-more">
          Loading more chats…
        </p>
      )}
    </div>
  );
}

/** One row, absolutely placed at its index (the list's height is every row's). */
function ChatRow(props: {
  chat: Chat;
  at: number;
  size: number;
  open: boolean;
  filters: ChatFilters;
  labels: ReadonlyMap<string, Label>;
  openTicket: boolean;
  breach: BreachMark | undefined;
  now: Date;
}) {
  const { chat, filters, labels, now } = props;
  const at = lastActivity(chat);
  const unread = unreadOf(chat);
  const flags = chat.flag_count ?? 0;
  const heading = chatHeading(chat);
  return (
    <li style={{ top: props.at * ROW_HEIGHT }} aria-posinset={props.at + 1} aria-setsize={props.size}>
      <Link to={chatsPagePath(filters, chat)} aria-current={props.open ? 'page' : undefined} data-chat-id={chat.chat_id}>
        <span className="chat-top">
          <span className="chat-name">
            <span className="chat-title">{heading.title}</span>
            {heading.number && <span className="muted chat-number">{heading.number}</span>}
          </span>
          {at !== null && (
            <time className="muted chat-time" dateTime={new Date(at).toISOString()} title={new Date(at).toLocaleString()}>
              {shortTime(at, now)}
            </time>
          )}
        </span>
        <span className="chat-top">
          <span className="muted preview">{chat.latest_message?.body ?? ''}</span>
          {unread > 0 && (
            <span className="unread" data-unread={unread} title={`${unread} unread`}>
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </span>
        <span className="chat-marks">
          {chat.assigned_to && (
            <span className="assignee" data-assignee={chat.assigned_to} title={`Assigned to ${chat.assigned_to}`}>
              @{assigneeShort(chat.assigned_to)}
            </span>
          )}
          {chatLabels(chat, labels).map((l) => (
            <span
              key={l.label_id}
              className="chip"
              data-label={l.name}
              style={{ background: chipBackground(l.color), color: chipTextColor(l.color) }}
            >
              {l.name}
            </span>
          ))}
          {flags > 0 && (
            <span className="mark flag" data-flagged={flags} title={`${flags} flagged message${flags === 1 ? '' : 's'}`}>
              ⚑ flagged
            </span>
          )}
          {props.openTicket && (
            <span className="mark ticket" data-open-ticket="">
              open ticket
            </span>
          )}
          {props.breach && (
            // Its words are part of the row link's name ("… SLA breached"); the title says which policies.
            <span className="mark sla" data-sla-breached="" title={breachTitle(props.breach, now)}>
              <span aria-hidden="true">⏱ </span>SLA breached
            </span>
          )}
        </span>
      </Link>
    </li>
  );
}
