import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import type { Note } from '../../api/types';
import { ErrorNote } from '../../components/ErrorNote';

/** A chat's private notes (GET /v1/chats/{chat_id}/notes, newest first) and a box to leave one (POST /v1/note/create): never sent to the customer. */
export function NotesPanel({ chatId, phone }: { chatId: string; phone: string }) {
  const [notes, setNotes] = useState<Note[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setNotes((await api<{ notes: Note[] }>('GET', `/chats/${encodeURIComponent(chatId)}/notes?limit=100`, { phone })).notes);
    } catch (err) {
      setError(errorText(err));
    }
  }, [chatId, phone]);
  useEffect(() => void load(), [load]);
  const add = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const message = String(new FormData(form).get('note') ?? '').trim();
    if (!message) return;
    setError(null);
    try {
      await api('POST', '/note/create', { body: { chat_id: chatId, message }, phone });
      form.reset();
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <section className="notes" aria-label="Private notes">
      <h2>Private notes</h2>
      <ErrorNote error={error} />
      {notes === null && !error && <p role="status">Loading notes…</p>}
      {notes?.length === 0 && <p className="muted">No notes on this chat.</p>}
      {notes && notes.length > 0 && (
        <ul className="note-list">
          {notes.map((n) => (
            <li key={n.message_id} data-note-id={n.message_id}>
              <span className="body">{n.body}</span>
              <span className="muted meta">
                {n.performed_by ?? ''}
                {n.timestamp ? ` · ${new Date(n.timestamp).toLocaleString()}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      <form className="row" onSubmit={(e) => void add(e)}>
        <label className="grow">
          Note (only your team sees it)
          <textarea name="note" rows={2} required maxLength={10000} />
        </label>
        <button type="submit">Add note</button>
      </form>
    </section>
  );
}
