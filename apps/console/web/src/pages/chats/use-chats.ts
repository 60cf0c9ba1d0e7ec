import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorText } from '../../api/client';
import { useRealtimeConnected, useRealtimeEvents } from '../../api/realtime';
import { digits, type Chat, type Label, type Message, type Ticket } from '../../api/types';
import {
  chatsRequest,
  filtering,
  narrowToOpenTickets,
  openTicketChats,
  withChatRead,
  withNewMessage,
  type ChatFilters,
} from './chats-view';

const LIST_LIMIT = 100;

/**
 * The chats the session reaches, most recent first, narrowed by the filters (chats-view.ts). A new
 * message is applied in place (its chat to the top, its unread count) without reading the list again;
 * the list is re-read (at most every 300 ms) when a chat it does not hold gets a message, when a
 * filter may no longer hold, or on chat, label, assignment and flag events. The open tickets (for
 * the marker and the open-ticket filter) are re-read on ticket events; the labels once.
 */
export function useChats(filters: ChatFilters, email: string | null, open: { chatId: string; phone: string } | null) {
  const [chats, setChats] = useState<Chat[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [labels, setLabels] = useState<Map<string, Label>>(new Map());
  const [openTickets, setOpenTickets] = useState<Set<string> | null>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const request = chatsRequest(filters, email, LIST_LIMIT);
  const key = `${request.path}|${request.phone ?? ''}`;
  const current = useRef<Chat[] | null>(null);
  const show = useCallback((list: Chat[] | null) => {
    current.current = list;
    setChats(list);
  }, []);
  const readSeq = useRef(0);
  const load = useCallback(async () => {
    const seq = ++readSeq.current;
    try {
      const [path, phone] = key.split('|');
      const answer = await api<{ chats: Chat[] }>('GET', path, { phone: phone || null });
      if (seq !== readSeq.current) return; // a later read (other filters) is under way: its answer wins
      show(answer.chats);
      setError(null);
    } catch (err) {
      if (seq === readSeq.current) setError(errorText(err));
    }
  }, [key, show]);
  const loadTickets = useCallback(async () => {
    try {
      const [open, progress] = await Promise.all(
        ['open', 'inprogress'].map((status) => api<{ tickets: Ticket[] }>('GET', `/tickets?status=${status}&limit=2000`)),
      );
      setOpenTickets(openTicketChats([...open.tickets, ...progress.tickets]));
    } catch {
      setOpenTickets(null); // no inbox service (or no tickets route): no markers rather than an error over the list
    }
  }, []);
  const later = useCallback(() => {
    pending.current ??= setTimeout(() => {
      pending.current = null;
      void load();
    }, 300);
  }, [load]);
  useEffect(() => {
    void load();
    return () => {
      if (pending.current) clearTimeout(pending.current);
      pending.current = null;
    };
  }, [load]);
  useEffect(() => {
    void loadTickets();
    api<{ labels: Label[] }>('GET', '/labels?type=chat').then(
      (answer) => setLabels(new Map(answer.labels.map((l) => [l.label_id, l]))),
      () => setLabels(new Map()),
    );
  }, [loadTickets]);
  useRealtimeConnected(() => {
    void load();
    void loadTickets();
  });
  const openRef = useRef(open);
  openRef.current = open;
  const filtered = filtering(filters);
  useRealtimeEvents(['message.created'], (_name, data) => {
    const message = data as Message;
    if (filters.phone && digits(message.org_phone) !== filters.phone) return;
    const openChat = openRef.current && digits(message.org_phone) === openRef.current.phone ? openRef.current.chatId : null;
    const next = current.current && withNewMessage(current.current, message, openChat);
    if (next) show(next);
    if (!next || filtered) later();
  });
  useRealtimeEvents(
    ['chat.created', 'chat.updated', 'chat.label.updated', 'chat.custom_properties.updated', 'message.flagged', 'message.unflagged'],
    later,
  );
  useRealtimeEvents(['ticket.created', 'ticket.updated', 'ticket.deleted'], () => void loadTickets());
  /** After POST /chats/{chat_id}/read: the chat's count on that phone is 0 here too. */
  const markedRead = useCallback(
    (chatId: string, phone: string) => current.current && show(withChatRead(current.current, chatId, phone)),
    [show],
  );
  return { chats: chats && narrowToOpenTickets(chats, filters, openTickets), error, labels, openTickets, markedRead };
}
