import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorText } from '../../api/client';
import { useRealtimeConnected, useRealtimeEvents } from '../../api/realtime';
import { digits, type Chat, type Message } from '../../api/types';

const LIST_LIMIT = 100;
const MESSAGES_LIMIT = 100;

/** The chats the session reaches, most recent first, re-read when a message or chat event says the order changed. */
export function useChats() {
  const [chats, setChats] = useState<Chat[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const load = useCallback(async () => {
    try {
      setChats((await api<{ chats: Chat[] }>('GET', `/chats?limit=${LIST_LIMIT}`)).chats);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  useEffect(() => {
    void load();
    return () => void (pending.current && clearTimeout(pending.current));
  }, [load]);
  useRealtimeConnected(() => void load());
  // A burst of messages is one re-read (at most every 300 ms).
  useRealtimeEvents(['message.created', 'chat.created', 'chat.updated'], () => {
    pending.current ??= setTimeout(() => {
      pending.current = null;
      void load();
    }, 300);
  });
  return { chats, error };
}

const same = (a: Message, b: Message) => a.message_id === b.message_id;

/** One chat's messages (oldest first), live: created, edited and acknowledged messages replace their row. */
export function useMessages(chatId: string, phone: string) {
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const page = await api<{ messages: Message[] }>('GET', `/chats/${encodeURIComponent(chatId)}/messages?limit=${MESSAGES_LIMIT}`, { phone });
      setMessages([...page.messages].reverse());
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [chatId, phone]);
  useEffect(() => {
    setMessages(null);
    void load();
  }, [load]);
  useRealtimeConnected(() => void load());
  useRealtimeEvents(['message.created', 'message.updated', 'message.deleted', 'message.ack.updated'], (_name, data) => {
    const message = data as Message;
    if (message.chat_id !== chatId || digits(message.org_phone) !== phone) return;
    setMessages((list) => {
      if (!list) return list;
      return list.some((m) => same(m, message)) ? list.map((m) => (same(m, message) ? message : m)) : [...list, message];
    });
  });
  return { messages, error };
}
