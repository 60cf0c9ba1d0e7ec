import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { Message, Note } from '../../api/types';
import { ErrorNote } from '../../components/ErrorNote';
import { Composer } from './Composer';
import { MessageItem } from './MessageItem';
import { NotesPanel } from './NotesPanel';
import {
  indexMessages,
  isGroupChat,
  noteAuthor,
  pinnedIds,
  quotedOf,
  reactionsByMessage,
  senderOf,
  timeline,
  wantsOlder,
} from './conversation-view';
import { useConversationExtras, useMediaLinks, useQuotedMessages } from './use-conversation-extras';
import { useMessages } from './use-messages';

function NoteItem({ note }: { note: Note }) {
  return (
    <li className="note" data-note-id={note.message_id}>
      <span className="note-label">Private note{noteAuthor(note.performed_by) ? ` · ${noteAuthor(note.performed_by)}` : ''}</span>
      <span className="body">{note.body}</span>
      <span className="muted meta">{note.timestamp ? new Date(note.timestamp).toLocaleString() : ''}</span>
    </li>
  );
}

/**
 * One chat's conversation, live: messages oldest first (older pages read as the reader scrolls to
 * the top), with senders in groups, quotes, media, reactions, pins and delivery marks, the team's
 * notes between them; replying to a message, reacting, forwarding; a box to send (text, a file) and one
 * to leave a note.
 */
export function ChatView({
  chatId,
  phone,
  onTicket,
  onShown,
}: {
  chatId: string;
  phone: string;
  onTicket?: (m: Message) => void;
  /** Called once the first page of messages is in (or could not be read): the side panel's reads wait for it. */
  onShown?: () => void;
}) {
  const { messages, error, hasOlder, loadingOlder, loadOlder } = useMessages(chatId, phone);
  const settled = messages !== null || !!error;
  useEffect(() => {
    if (settled) onShown?.();
  }, [settled]);
  const { chat, reactions, notes, notesError, reloadNotes } = useConversationExtras(chatId, phone);
  const links = useMediaLinks(messages);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const group = isGroupChat(chatId, chat);
  const members = chat?.members;
  const loaded = useMemo(() => indexMessages(messages ?? []), [messages]);
  const fetched = useQuotedMessages(messages, loaded, chatId, phone);
  // Quoted messages older than the loaded pages, fetched one by one, join the index (not the timeline).
  const index = useMemo(() => {
    const extra = [...fetched.values()].filter((m): m is Message => !!m);
    return extra.length ? new Map([...indexMessages(extra), ...loaded]) : loaded;
  }, [loaded, fetched]);
  const reacted = useMemo(() => reactionsByMessage(reactions), [reactions]);
  const pinned = useMemo(() => pinnedIds(chat?.pinned_messages, Date.now()), [chat]);
  const items = useMemo(() => timeline(messages ?? [], notes ?? [], !hasOlder), [messages, notes, hasOlder]);

  // Keep the reader's place: at the newest message on first load, after one's own send, and while
  // they are at the bottom (new messages, notes, reactions, files that load); where they were when
  // older messages are put above or a message arrives while they read further up.
  const atBottom = useRef(true);
  const kept = useRef<{ first: string | null; last: string | null; height: number; top: number }>({
    first: null,
    last: null,
    height: 0,
    top: 0,
  });
  useLayoutEffect(() => {
    const el = list.current;
    if (!el || !messages?.length) return;
    const first = messages[0].message_id;
    const last = messages[messages.length - 1].message_id;
    const was = kept.current;
    if (was.first && first !== was.first && last === was.last) el.scrollTop = el.scrollHeight - was.height + was.top;
    else if (atBottom.current || !was.last || (last !== was.last && messages[messages.length - 1].from_me)) el.scrollTop = el.scrollHeight;
    kept.current = { first, last, height: el.scrollHeight, top: el.scrollTop };
  }, [messages, items, reacted, pinned, members, links, index]);
  const stayAtBottom = () => {
    if (atBottom.current && list.current) list.current.scrollTop = list.current.scrollHeight;
  };
  const older = useCallback(() => {
    const el = list.current;
    if (el) kept.current = { ...kept.current, height: el.scrollHeight, top: el.scrollTop };
    void loadOlder();
  }, [loadOlder]);
  const onScroll = () => {
    const el = list.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (wantsOlder(el.scrollTop, hasOlder, loadingOlder)) older();
  };

  const react = async (m: Message, emoji: string) => {
    setActionError(null);
    try {
      await api('POST', `/message/${encodeURIComponent(m.message_id)}/react`, { body: { reaction: emoji }, phone });
    } catch (err) {
      setActionError(`Could not react: ${errorText(err)}`);
    }
  };

  return (
    <section className="chat" aria-label={`Messages of ${chatId}`}>
      <ErrorNote error={error} />
      {messages === null && !error && <p role="status">Loading messages…</p>}
      <ol className="messages" aria-label="Messages" ref={list} onScroll={onScroll} onLoad={stayAtBottom} tabIndex={0}>
        {hasOlder && (
          <li className="older">
            <button type="button" className="secondary" onClick={older} disabled={loadingOlder}>
              {loadingOlder ? 'Loading older messages…' : 'Load older messages'}
            </button>
          </li>
        )}
        {messages?.length === 0 && <li className="older muted">No messages yet.</li>}
        {items.map((item) =>
          item.kind === 'note' ? (
            <NoteItem key={`note-${item.note.message_id}`} note={item.note} />
          ) : (
            <MessageItem
              key={item.message.message_id}
              message={item.message}
              sender={group ? senderOf(item.message, members) : null}
              quoted={quoteOf(item.message)}
              reactions={reacted.get(item.message.message_id) ?? []}
              pinned={pinned.has(item.message.message_id)}
              mediaLink={item.message.media?.path ? links.get(item.message.media.path) : undefined}
              phone={phone}
              onReply={setReplyTo}
              onReact={(m, emoji) => void react(m, emoji)}
              onTicket={onTicket}
            />
          ),
        )}
      </ol>
      <ErrorNote error={actionError} />
      <Composer chatId={chatId} phone={phone} replyTo={replyTo} clearReply={() => setReplyTo(null)} />
      <NotesPanel chatId={chatId} phone={phone} notes={notes} error={notesError} reload={reloadNotes} />
    </section>
  );

  function quoteOf(m: Message) {
    const q = quotedOf(m, index);
    if (!q || !('found' in q)) return q;
    const who = q.found.from_me ? null : senderOf(q.found, members);
    // In a one-to-one chat the customer is the chat: its name (GET /chats/{chat_id} names it after the contact).
    const name = who?.name ?? (group ? null : chat?.chat_name || null);
    return { found: q.found, sender: who ? (name ?? `+${who.number}`) : null };
  }
}
