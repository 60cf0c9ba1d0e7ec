import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import type { Note } from '../../api/types';
import { ErrorNote } from '../../components/ErrorNote';

/**
 * The box to leave a private note on the chat (POST /v1/note/create): never sent to the customer.
 * The notes themselves show in the conversation's timeline, between the messages.
 */
export function NotesPanel(props: {
  chatId: string;
  phone: string;
  notes: Note[] | null;
  error: string | null;
  reload: () => Promise<void>;
}) {
  const { chatId, phone, notes } = props;
  const [error, setError] = useState<string | null>(null);
  const add = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const message = String(new FormData(form).get('note') ?? '').trim();
    if (!message) return;
    setError(null);
    try {
      await api('POST', '/note/create', { body: { chat_id: chatId, message }, phone });
      form.reset();
      await props.reload();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <section className="notes" aria-label="Private notes">
      <h2>Private notes</h2>
      <ErrorNote error={props.error ?? error} />
      {notes === null && !props.error && <p role="status">Loading notes…</p>}
      {notes?.length === 0 && <p className="muted">No notes on this chat.</p>}
      {notes && notes.length > 0 && (
        <p className="muted">
          {notes.length} note{notes.length === 1 ? '' : 's'}, shown in the conversation where they were left.
        </p>
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
