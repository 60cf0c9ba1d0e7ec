import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorText } from '../../api/client';
import { useRealtimeConnected, useRealtimeEvents } from '../../api/realtime';
import { digits, type Chat, type Label, type Message, type Ticket } from '../../api/types';
import { withHead, withPage } from './chat-window';
import {
  breachMarks,
  chatsRequest,
  filtering,
  openTicketChats,
  withChatRead,
  withNewMessage,
  withoutBreach,
  type BreachingAnswer,
  type BreachMark,
  type ChatFilters,
} from './chats-view';

/** A page of GET /chats; further pages are read by cursor as the list is scrolled. */
export const LIST_LIMIT = 100;
/** The breaching chats read for the "SLA breached" marks (the earliest deadlines first), and how often again. */
export const BREACH_LIMIT = 1000;
const BREACH_REFRESH_MS = 60_000;
/** After a reply, the marks are read again this much later (the analytics service takes the reply in meanwhile)… */
const AFTER_REPLY_MS = 1_500;
/** …and a breach its wait started before stays answered this long, whatever a read says. */
const REPLY_HOLD_MS = 60_000;

interface Listing {
  chats: Chat[];
  /** The cursor of the page after the last one loaded; null: the list is whole. */
  next: string | null;
}

/**
 * The chats the session reaches, most recent first, narrowed by the filters (chats-view.ts, all of
 * them the API's), a page at a time: `loadMore` reads the next page by cursor (chat-window.ts joins
 * it). A new message is applied in place (its chat to the top, its unread count) without reading the
 * list again; the first page is re-read (at most every 300 ms) and joined to the pages further down
 * when a chat it does not hold gets a message, when a filter may no longer hold, or on chat, label,
 * assignment and flag events. The open tickets (for the marker) are re-read on ticket events; the labels once.
 * The first page is read alone: the tickets and breaches, and the read again on the socket's connection, after it.
 * The chats breaching an SLA (GET /analytics/now?lists=breaching, the "SLA breached" marker) are read again on
 * sla.breached, a while after a reply to a marked chat (which loses its mark at once), on reconnection and every minute.
 */
export function useChats(filters: ChatFilters, email: string | null, open: { chatId: string; phone: string } | null) {
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [labels, setLabels] = useState<Map<string, Label>>(new Map());
  const [openTickets, setOpenTickets] = useState<Set<string> | null>(null);
  const [breaches, setBreaches] = useState<Map<string, BreachMark> | null>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const request = chatsRequest(filters, email, LIST_LIMIT);
  const key = `${request.path}|${request.phone ?? ''}`;
  const current = useRef<Listing | null>(null);
  const shownKey = useRef<string | null>(null);
  const show = useCallback((next: Listing | null) => {
    current.current = next;
    setListing(next);
  }, []);
  const readSeq = useRef(0);
  // The first read goes alone (issue 33: the first row < 1 s): the markers' reads (open tickets, breaches)
  // and the read again on the socket's connection follow its answer, rather than share the gateway with it.
  const [firstRead, setFirstRead] = useState(false);
  const firstReadRef = useRef(false);
  const readAgain = useRef(false);
  const load = useCallback(async () => {
    const seq = ++readSeq.current;
    try {
      const [path, phone] = key.split('|');
      const answer = await api<{ chats: Chat[]; next_cursor?: string | null }>('GET', path, { phone: phone || null });
      if (seq !== readSeq.current) return; // a later read (other filters) is under way: its answer wins
      const next = answer.next_cursor ?? null;
      const held = shownKey.current === key ? current.current : null; // the same list: keep the pages loaded below
      const chats = held ? withHead(held.chats, answer.chats, next === null) : answer.chats;
      const keptTail = held !== null && chats.length > answer.chats.length;
      shownKey.current = key;
      show({ chats, next: keptTail ? held.next : next });
      setError(null);
    } catch (err) {
      if (seq === readSeq.current) setError(errorText(err));
    } finally {
      if (!firstReadRef.current) {
        firstReadRef.current = true;
        setFirstRead(true);
      }
    }
  }, [key, show]);
  const loadRef = useRef(load);
  loadRef.current = load;
  const loadingMore = useRef(false);
  const loadMore = useCallback(async () => {
    const at = current.current;
    if (!at?.next || loadingMore.current) return;
    loadingMore.current = true;
    const seq = readSeq.current;
    try {
      const more = chatsRequest(filters, email, LIST_LIMIT, at.next);
      const answer = await api<{ chats: Chat[]; next_cursor?: string | null }>('GET', more.path, { phone: more.phone });
      // Joined only to the list it was read for: not after a re-read of the first page or another filter
      // (live messages meanwhile changed rows in place, which withPage keeps).
      const now = current.current;
      if (seq === readSeq.current && now?.next === at.next)
        show({ chats: withPage(now.chats, answer.chats), next: answer.next_cursor ?? null });
    } catch (err) {
      if (seq === readSeq.current) setError(errorText(err));
    } finally {
      loadingMore.current = false;
    }
  }, [filters, email, show]);
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
  // chat id → [the reply's timestamp, when it was seen]: breaches it answered stay off until the service agrees
  const replies = useRef(new Map<string, [number, number]>());
  const breachSeq = useRef(0);
  const loadBreaches = useCallback(async () => {
    const seq = ++breachSeq.current;
    try {
      const answer = await api<BreachingAnswer>('GET', `/analytics/now?lists=breaching&limit=${BREACH_LIMIT}`, {
        phone: filters.phone || null,
      });
      if (seq !== breachSeq.current) return;
      const now = Date.now();
      for (const [chat, [, seen]] of replies.current) if (now - seen > REPLY_HOLD_MS) replies.current.delete(chat);
      setBreaches(breachMarks(answer, new Map([...replies.current].map(([chat, [at]]) => [chat, at]))));
    } catch {
      if (seq === breachSeq.current) setBreaches(null); // no analytics service (or no access): no marks rather than an error
    }
  }, [filters.phone]);
  const breachTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const breachesLater = useCallback(
    (ms: number, replace: boolean) => {
      if (breachTimer.current && !replace) return;
      if (breachTimer.current) clearTimeout(breachTimer.current);
      breachTimer.current = setTimeout(() => {
        breachTimer.current = null;
        void loadBreaches();
      }, ms);
    },
    [loadBreaches],
  );
  useEffect(() => {
    if (!firstRead) return;
    void loadBreaches();
    const every = setInterval(() => void loadBreaches(), BREACH_REFRESH_MS);
    return () => {
      clearInterval(every);
      if (breachTimer.current) clearTimeout(breachTimer.current);
      breachTimer.current = null;
    };
  }, [firstRead, loadBreaches]);
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
    if (!firstRead) return;
    void loadTickets();
    if (readAgain.current) {
      readAgain.current = false;
      void loadRef.current();
    }
  }, [firstRead, loadTickets]);
  useEffect(() => {
    api<{ labels: Label[] }>('GET', '/labels?type=chat').then(
      (answer) => setLabels(new Map(answer.labels.map((l) => [l.label_id, l]))),
      () => setLabels(new Map()),
    );
  }, []);
  useRealtimeConnected(() => {
    // Connected before the first answer: the list is read again once it is in (the markers are read then).
    if (!firstReadRef.current) return void (readAgain.current = true);
    void load();
    void loadTickets();
    void loadBreaches();
  });
  const openRef = useRef(open);
  openRef.current = open;
  const filtered = filtering(filters);
  useRealtimeEvents(['message.created'], (_name, data) => {
    const message = data as Message;
    if (filters.phone && digits(message.org_phone) !== filters.phone) return;
    const openChat = openRef.current && digits(message.org_phone) === openRef.current.phone ? openRef.current.chatId : null;
    const held = current.current;
    const next = held && withNewMessage(held.chats, message, openChat);
    if (held && next) show({ ...held, chats: next });
    if (!next || filtered) later();
    // A reply answers its chat's breach: the mark goes at once (a read answered meanwhile cannot bring it back),
    // and the marks are read again once the service has the reply.
    if (!message.from_me) return;
    const at = message.timestamp ? Date.parse(message.timestamp) : Number.NaN;
    replies.current.set(message.chat_id, [Number.isNaN(at) ? Date.now() : at, Date.now()]);
    const unmarked = breaches && withoutBreach(breaches, message);
    if (unmarked) {
      setBreaches(unmarked);
      breachesLater(AFTER_REPLY_MS, true);
    }
  });
  useRealtimeEvents(['sla.breached'], () => breachesLater(300, false));
  useRealtimeEvents(
    ['chat.created', 'chat.updated', 'chat.label.updated', 'chat.custom_properties.updated', 'message.flagged', 'message.unflagged'],
    later,
  );
  useRealtimeEvents(['ticket.created', 'ticket.updated', 'ticket.deleted'], () => {
    void loadTickets();
    if (filters.ticket) later(); // the open-ticket filter is the API's: its list may have changed
  });
  /** After POST /chats/{chat_id}/read: the chat's count on that phone is 0 here too. */
  const markedRead = useCallback(
    (chatId: string, phone: string) =>
      current.current && show({ ...current.current, chats: withChatRead(current.current.chats, chatId, phone) }),
    [show],
  );
  return { chats: listing?.chats ?? null, hasMore: !!listing?.next, loadMore, error, labels, openTickets, breaches, markedRead };
}
