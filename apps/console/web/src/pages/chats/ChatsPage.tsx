import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { useRealtimeEvents } from '../../api/realtime';
import { digits, type Message } from '../../api/types';
import { navigate, useLocation } from '../../app/router';
import { useSession } from '../../app/session';
import { ErrorNote } from '../../components/ErrorNote';
import { ChatFilterBar } from './ChatFilterBar';
import { ChatList } from './ChatList';
import { ChatView } from './ChatView';
import { SidePanel } from './SidePanel';
import { chatsPagePath, filtering, filtersFromQuery, type ChatFilters } from './chats-view';
import { useChats } from './use-chats';

/**
 * The chats page: the filtered list of chats (filters in the address), and the open one's messages
 * (phone from ?phone=) with the side panel beside it (its tickets, labels, properties, contact). Opening a chat marks it read on that phone (POST /v1/chats/{chat_id}/read).
 */
export function ChatsPage({ chatId }: { chatId?: string }) {
  const { query } = useLocation();
  const { me } = useSession();
  const phone = query.get('phone') ?? '';
  const filters = filtersFromQuery(query);
  const { chats, error, labels, openTickets, markedRead } = useChats(filters, me?.member.email ?? null, chatId ? { chatId, phone } : null);
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
  useEffect(() => setTicketFrom(null), [chatId, phone]);
  const change = (next: ChatFilters) =>
    navigate(chatsPagePath(next, chatId ? { chat_id: chatId, org_phone: phone } : undefined), { replace: true });
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
            filtered={filtering(filters)}
          />
        )}
        {filters.ticket && <p className="muted">Open ticket narrows the 100 most recent chats that match the other filters.</p>}
      </div>
      {chatId ? (
        <>
          <ChatView key={`${phone}/${chatId}`} chatId={chatId} phone={phone} onTicket={setTicketFrom} />
          <SidePanel
            key={`panel-${phone}/${chatId}`}
            chatId={chatId}
            phone={phone}
            ticketFrom={ticketFrom}
            clearTicketFrom={() => setTicketFrom(null)}
          />
        </>
      ) : (
        <p className="muted">Choose a chat to read its messages.</p>
      )}
    </div>
  );
}
