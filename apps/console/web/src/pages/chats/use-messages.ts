import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorText } from '../../api/client';
import { useRealtimeConnected, useRealtimeEvents } from '../../api/realtime';
import { digits, type Message } from '../../api/types';
import { withMessage, withPage } from './conversation-view';

/** Messages per read (GET /v1/chats/{chat_id}/messages?offset&limit, newest first). */
export const MESSAGES_PAGE = 50;

type Page = { messages: Message[] };

/**
 * One chat's messages on one phone, oldest first: the newest page first, then older pages on demand
 * (`loadOlder`, offset = the messages held, so a message that arrived meanwhile only repeats a row,
 * which the merge drops). Live: created, edited, deleted and acknowledged messages replace their row.
 */
export function useMessages(chatId: string, phone: string) {
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [hasOlder, setHasOlder] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const held = useRef<Message[]>([]);
  const show = useCallback((next: (list: Message[]) => Message[]) => {
    setMessages((list) => {
      const out = next(list ?? []);
      held.current = out;
      return out;
    });
  }, []);
  const read = useCallback(
    (offset: number) =>
      api<Page>('GET', `/chats/${encodeURIComponent(chatId)}/messages?offset=${offset}&limit=${MESSAGES_PAGE}`, { phone }),
    [chatId, phone],
  );
  const load = useCallback(async () => {
    try {
      const first = held.current.length === 0;
      const page = await read(0);
      show((list) => withPage(list, page.messages, true));
      if (first) setHasOlder(page.messages.length === MESSAGES_PAGE);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [read, show]);
  const busy = useRef(false);
  const loadOlder = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setLoadingOlder(true);
    try {
      const page = await read(held.current.length);
      show((list) => withPage(list, page.messages));
      setHasOlder(page.messages.length === MESSAGES_PAGE);
    } catch (err) {
      setError(errorText(err));
    } finally {
      busy.current = false;
      setLoadingOlder(false);
    }
  }, [read, show]);
  useEffect(() => {
    held.current = [];
    setMessages(null);
    void load();
  }, [load]);
  useRealtimeConnected(() => void load());
  useRealtimeEvents(['message.created', 'message.updated', 'message.deleted', 'message.ack.updated'], (_name, data) => {
    const message = data as Message;
    if (message.chat_id !== chatId || digits(message.org_phone) !== phone) return;
    setMessages((list) => {
      if (!list) return list;
      const out = withMessage(list, message);
      held.current = out;
      return out;
    });
  });
  return { messages, error, hasOlder, loadingOlder, loadOlder };
}
