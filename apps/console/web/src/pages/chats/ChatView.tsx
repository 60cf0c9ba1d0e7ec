import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { NotesPanel } from './NotesPanel';
import { useMessages } from './use-chats';

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : '');

/** One chat's messages, live, and a box to send one (through the queue: POST /v1/message/send). */
export function ChatView({ chatId, phone }: { chatId: string; phone: string }) {
  const { messages, error } = useMessages(chatId, phone);
  const [sendError, setSendError] = useState<string | null>(null);
  const [queued, setQueued] = useState<string | null>(null);
  const end = useRef<HTMLLIElement>(null);
  // In braces: newer browsers' scrollIntoView returns a promise, which React would take for a cleanup.
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages?.length]);
  const send = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const message = String(new FormData(form).get('message') ?? '').trim();
    if (!message) return;
    setSendError(null);
    try {
      const job = await api<{ queue_id: string }>('POST', '/message/send', { body: { chat_id: chatId, message }, phone });
      setQueued(`Queued (${job.queue_id}); it shows here once the phone has sent it.`);
      form.reset();
    } catch (err) {
      setSendError(errorText(err));
    }
  };
  return (
    <section className="chat" aria-label={`Messages of ${chatId}`}>
      <ErrorNote error={error} />
      {messages === null && !error && <p role="status">Loading messages…</p>}
      <ol className="messages" aria-label="Messages" aria-live="polite">
        {messages?.map((m) => (
          <li key={m.message_id} className={m.from_me ? 'mine' : 'theirs'} data-message-id={m.message_id}>
            <span className="body">{m.body ?? '(no text)'}</span>
            <span className="muted meta">
              {time(m.timestamp)}
              {m.from_me && m.ack ? ` · ack ${m.ack}` : ''}
            </span>
          </li>
        ))}
        <li ref={end} aria-hidden="true" className="end" />
      </ol>
      <form className="row send" onSubmit={(e) => void send(e)}>
        <label className="grow">
          Message
          <textarea name="message" rows={2} required maxLength={65536} />
        </label>
        <button type="submit">Send</button>
      </form>
      {queued && (
        <p className="muted" role="status">
          {queued}
        </p>
      )}
      <ErrorNote error={sendError} />
      <NotesPanel chatId={chatId} phone={phone} />
    </section>
  );
}
