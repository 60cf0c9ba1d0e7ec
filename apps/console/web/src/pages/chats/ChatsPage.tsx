import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import { useRealtimeEvents } from '../../api/realtime';
import { digits, type Message } from '../../api/types';
import { navigate, useLocation } from '../../app/router';
import { useSession } from '../../app/session';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { ChatFilterBar } from './ChatFilterBar';
import { ChatList } from './ChatList';
import { ChatView } from './ChatView';
import { ShortcutHelp } from './ShortcutHelp';
import { SidePanel, type PanelCommand } from './SidePanel';
import { chatsPagePath, filtering, filtersFromQuery, type ChatFilters } from './chats-view';
import { neighbourIndex } from './keyboard-view';
import { useChats } from './use-chats';
import { useShortcuts } from './use-shortcuts';

/**
 * The chats page: the filtered list of chats (filters in the address), and the open one's messages
 * (phone from ?phone=) with the side panel beside it (its tickets, labels, properties, contact). Opening a chat marks it read on that phone (POST /v1/chats/{chat_id}/read).
 * The keys of keyboard-view.ts move through the list, search, reply, assign and close; `?` lists them.
 */
export function ChatsPage({ chatId }: { chatId?: string }) {
  const { query } = useLocation();
  const { me } = useSession();
  const phone = query.get('phone') ?? '';
  const filters = filtersFromQuery(query);
  const { chats, hasMore, loadMore, error, labels, openTickets, breaches, markedRead } = useChats(
    filters,
    me?.member.email ?? null,
    chatId ? { chatId, phone } : null,
  );
  useEffect(() => {
    if (!chatId) return;
    api('POST', `/chats/${encodeURIComponent(chatId)}/read`, { phone: phone || null }).then(
      () => markedRead(chatId, phone),
      () => undefined, // the chat view shows why the chat cannot be read
    );
  }, [chatId, phone, markedRead]);
  // A customer's message in the open chat is read as it shows: the read mark follows (the list keeps 0).
  useRealtimeEvents(['message.created'], (_name, data) => {
    const m = data as Message;
    if (!chatId || m.from_me || m.chat_id !== chatId || digits(m.org_phone) !== phone) return;
    void api('POST', `/chats/${encodeURIComponent(chatId)}/read`, { phone: phone || null }).catch(() => undefined);
  });
  // "Ticket" on a message opens the side panel's new-ticket form from it.
  const [ticketFrom, setTicketFrom] = useState<Message | null>(null);
  // the chat (phone/chat) whose conversation has its first page: its side panel reads after it
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => setTicketFrom(null), [chatId, phone]);
  const change = (next: ChatFilters) =>
    navigate(chatsPagePath(next, chatId ? { chat_id: chatId, org_phone: phone } : undefined), { replace: true });
  // The keyboard: the list's order is the one shown; the side panel runs "assign to me" and "close ticket".
  const help = useRef<HTMLDialogElement>(null);
  const [keyNote, setKeyNote] = useState<string | null>(null);
  // Held with the chat it was given for: another chat's panel starts with none (not the last key again).
  const [command, setCommand] = useState<(PanelCommand & { chat: string }) | null>(null);
  const here = `${phone}/${chatId ?? ''}`;
  const inChat = (run: () => void) => () => {
    if (!chatId) return setKeyNote('Open a chat first (j and k move through the list).');
    setKeyNote(null);
    run();
  };
  const step = (by: 1 | -1) => () => {
    const list = chats ?? [];
    const at = neighbourIndex(
      list.map((c) => `${digits(c.org_phone)}/${c.chat_id}`),
      chatId ? `${phone}/${chatId}` : undefined,
      by,
    );
    const more = at === null && by === 1 && hasMore; // past the loaded pages: the next one is read
    if (more) void loadMore();
    setKeyNote(
      at !== null
        ? null
        : more
          ? 'Loading more chats… press j again.'
          : list.length
            ? `This is the ${by === 1 ? 'last' : 'first'} chat of the list.`
            : 'No chat in the list.',
    );
    if (at !== null) navigate(chatsPagePath(filters, list[at]));
  };
  useShortcuts({
    next: step(1),
    previous: step(-1),
    search: () => document.getElementById('chat-search')?.focus(),
    reply: inChat(() => document.getElementById('composer-message')?.focus()),
    'assign-me': inChat(() => setCommand((c) => ({ action: 'assign-me', seq: (c?.seq ?? 0) + 1, chat: here }))),
    'close-ticket': inChat(() => setCommand((c) => ({ action: 'close-ticket', seq: (c?.seq ?? 0) + 1, chat: here }))),
    help: () => help.current?.showModal(),
  });
  return (
    <div className="chats">
      <div className="chat-column">
        <ChatFilterBar filters={filters} labels={labels} change={change} />
        <ErrorNote error={error} />
        {chats === null && !error ? (
          <p role="status">Loading chats…</p>
        ) : (
          <ChatList
            chats={chats ?? []}
            openId={chatId}
            filters={filters}
            labels={labels}
            openTickets={openTickets}
            breaches={breaches}
            filtered={filtering(filters)}
            hasMore={hasMore}
            loadMore={loadMore}
          />
        )}
        <StatusNote note={keyNote} />
        <button type="button" className="link-button shortcut-button" aria-keyshortcuts="?" onClick={() => help.current?.showModal()}>
          Keyboard shortcuts (?)
        </button>
        <ShortcutHelp ref={help} />
      </div>
      {chatId ? (
        <>
          <ChatView
            key={`${phone}/${chatId}`}
            chatId={chatId}
            phone={phone}
            onTicket={setTicketFrom}
            onShown={() => setShown(`${phone}/${chatId}`)}
          />
          <SidePanel
            key={`panel-${phone}/${chatId}`}
            chatId={chatId}
            phone={phone}
            ready={shown === `${phone}/${chatId}`}
            ticketFrom={ticketFrom}
            clearTicketFrom={() => setTicketFrom(null)}
            command={command?.chat === here ? command : null}
          />
        </>
      ) : (
        <p className="muted">Choose a chat to read its messages.</p>
      )}
    </div>
  );
}
