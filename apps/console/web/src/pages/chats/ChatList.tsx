import { useEffect, useRef } from 'react';
import { Link } from '../../app/Link';
import { digits, type Chat, type Label } from '../../api/types';
import {
  assigneeShort,
  chatLabels,
  chatsPagePath,
  chipBackground,
  NO_FILTERS,
  chipTextColor,
  lastActivity,
  shortTime,
  unreadOf,
  type ChatFilters,
} from './chats-view';

export const chatTitle = (chat: Chat): string => chat.chat_name || chat.name || chat.contact_name || digits(chat.chat_id);
/** One chat's page, with no list filters (links from other pages). */
export const chatPath = (chat: Pick<Chat, 'chat_id' | 'org_phone'>): string => chatsPagePath(NO_FILTERS, chat);

/**
 * The chats, most recent first; the open one is marked. Each row: name, time of the last message,
 * its text, unread count, assignee, labels, and the flagged and open-ticket markers. Links keep the
 * list's filters.
 */
export function ChatList(props: {
  chats: Chat[];
  openId?: string;
  filters: ChatFilters;
  labels: ReadonlyMap<string, Label>;
  openTickets: ReadonlySet<string> | null;
  filtered: boolean;
}) {
  const { chats, openId, filters, labels, openTickets } = props;
  const list = useRef<HTMLUListElement>(null);
  // The open chat stays in sight in the list (opened with j / k further down). A block body: newer
  // browsers' scrollIntoView answers a promise, which React would take for the effect's cleanup.
  useEffect(() => {
    list.current?.querySelector('a[aria-current="page"]')?.scrollIntoView({ block: 'nearest' });
  }, [openId]);
  if (chats.length === 0) return <p role="status">{props.filtered ? 'No chat matches these filters.' : 'No chats yet.'}</p>;
  const now = new Date();
  return (
    <ul className="chat-list" aria-label="Chats" ref={list}>
      {chats.map((chat) => {
        const at = lastActivity(chat);
        const unread = unreadOf(chat);
        const flags = chat.flag_count ?? 0;
        return (
          <li key={chat.chat_id}>
            <Link to={chatsPagePath(filters, chat)} aria-current={chat.chat_id === openId ? 'page' : undefined} data-chat-id={chat.chat_id}>
              <span className="chat-top">
                <span className="chat-title">{chatTitle(chat)}</span>
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
                    {unread}
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
                {openTickets?.has(chat.chat_id) && (
                  <span className="mark ticket" data-open-ticket="">
                    open ticket
                  </span>
                )}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
