import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorText } from '../../api/client';
import { useRealtimeConnected, useRealtimeEvents } from '../../api/realtime';
import { digits, type ChatDetail, type Message, type Note, type Reaction } from '../../api/types';
import { mediaPaths, missingQuotes, quotedCandidates, withReaction } from './conversation-view';

const path = (chatId: string) => encodeURIComponent(chatId);
const ofChat = (chatId: string, phone: string, d: { chat_id?: string | null; org_phone?: string | null }) =>
  d.chat_id === chatId && (!d.org_phone || digits(d.org_phone) === phone);

/**
 * What the conversation shows beside the messages, each read through its public route: the chat
 * (GET /chats/{chat_id}: group members' names, pinned messages; re-read on message.updated, which a
 * pin emits), the reactions that stand (GET /reactions?chat_id=, then reaction.created|updated in
 * place) and the team's notes (GET /chats/{chat_id}/notes, re-read on note.created).
 */
export function useConversationExtras(chatId: string, phone: string) {
  const [chat, setChat] = useState<ChatDetail | null>(null);
  const [reactions, setReactions] = useState<Reaction[]>([]);
  const [notes, setNotes] = useState<Note[] | null>(null);
  const [notesError, setNotesError] = useState<string | null>(null);
  const loadChat = useCallback(
    () => api<ChatDetail>('GET', `/chats/${path(chatId)}`, { phone }).then(setChat, () => undefined),
    [chatId, phone],
  );
  const loadReactions = useCallback(
    () =>
      api<{ reactions: Reaction[] }>('GET', `/reactions?chat_id=${path(chatId)}&limit=2000`, { phone }).then(
        (a) => setReactions(a.reactions),
        () => undefined, // no reactions rather than an error over the conversation
      ),
    [chatId, phone],
  );
  const loadNotes = useCallback(async () => {
    try {
      setNotes((await api<{ notes: Note[] }>('GET', `/chats/${path(chatId)}/notes?limit=200`, { phone })).notes);
      setNotesError(null);
    } catch (err) {
      setNotesError(errorText(err));
    }
  }, [chatId, phone]);
  const all = useCallback(() => {
    void loadChat();
    void loadReactions();
    void loadNotes();
  }, [loadChat, loadReactions, loadNotes]);
  useEffect(all, [all]);
  useRealtimeConnected(all);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (pending.current && clearTimeout(pending.current)), []);
  useRealtimeEvents(['message.updated', 'chat.updated'], (_name, data) => {
    if (!ofChat(chatId, phone, data as Message)) return;
    pending.current ??= setTimeout(() => {
      pending.current = null;
      void loadChat();
    }, 200);
  });
  useRealtimeEvents(['reaction.created', 'reaction.updated'], (_name, data) => {
    const r = data as Reaction;
    if (ofChat(chatId, phone, r)) setReactions((list) => withReaction(list, r));
  });
  useRealtimeEvents(['note.created'], (_name, data) => {
    if ((data as Note).chat_id === chatId) void loadNotes();
  });
  return { chat, reactions, notes, notesError, reloadNotes: loadNotes };
}

/**
 * Links to the messages' files: each stored path (`media.path`) made a link by
 * POST /v1/media/migrate-url/batch (a private link, signed for the organization), once per path.
 * path → link, or null when the media service could not make one.
 */
export function useMediaLinks(messages: readonly Message[] | null): ReadonlyMap<string, string | null> {
  const [links, setLinks] = useState<Map<string, string | null>>(new Map());
  const asked = useRef(new Set<string>());
  const wanted = messages ? mediaPaths(messages).filter((p) => !asked.current.has(p)) : [];
  const key = wanted.join('\n');
  useEffect(() => {
    if (!key) return;
    const urls = key.split('\n');
    for (const u of urls) asked.current.add(u);
    api<{ results: { index: number; success: boolean; url?: string }[] }>('POST', '/media/migrate-url/batch', { body: { urls } }).then(
      (answer) =>
        setLinks((held) => {
          const next = new Map(held);
          for (const r of answer.results) next.set(urls[r.index], r.success && r.url ? r.url : null);
          return next;
        }),
      () =>
        setLinks((held) => {
          const next = new Map(held);
          for (const u of urls) next.set(u, null);
          return next;
        }),
    );
  }, [key]);
  return links;
}

/**
 * Quoted messages older than the loaded pages, each fetched once (GET /v1/message/{message_id}, the
 * candidates of quotedCandidates in turn): quoted id → the message, or null when none is found.
 */
export function useQuotedMessages(
  messages: readonly Message[] | null,
  index: ReadonlyMap<string, Message>,
  chatId: string,
  phone: string,
): ReadonlyMap<string, Message | null> {
  const [found, setFound] = useState<Map<string, Message | null>>(new Map());
  const asked = useRef(new Set<string>());
  const key = (messages ? missingQuotes(messages, index) : []).filter((id) => !asked.current.has(id)).join('\n');
  useEffect(() => {
    if (!key) return;
    for (const id of key.split('\n')) {
      asked.current.add(id);
      void (async () => {
        let message: Message | null = null;
        for (const ref of quotedCandidates(id, chatId)) {
          message = await api<Message>('GET', `/message/${encodeURIComponent(ref)}`, { phone }).catch(() => null);
          if (message) break;
        }
        setFound((held) => new Map(held).set(id, message));
      })();
    }
  }, [key, chatId, phone]);
  return found;
}
