import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import type { KbEntry } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNote } from '../../components/ErrorNote';
import { searchable } from './kb-view';

/** One FAQ (or self-learned entry): activate/deactivate, edit in place, delete (FAQs only: the API deletes no other type). */
export function FaqRow({ entry, onChanged }: { entry: KbEntry; onChanged(): Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = (label: string, call: () => Promise<unknown>) => async () => {
    setError(null);
    try {
      await call();
      await onChanged();
    } catch (err) {
      setError(`${label}: ${errorText(err)}`);
    }
  };
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const body = { question: String(data.get('question') ?? '').trim(), answer: String(data.get('answer') ?? '').trim() };
    void run('Save', async () => {
      await api('PATCH', `/knowledge-base/faq/${entry.context_id}`, { body });
      setEditing(false);
    })();
  };
  return (
    <li className="card" data-context-id={entry.context_id}>
      {editing ? (
        <form className="stack wide" onSubmit={save} aria-label="Edit the FAQ">
          <label>
            Question
            <input name="question" required defaultValue={entry.question} />
          </label>
          <label>
            Answer
            <textarea name="answer" required rows={3} defaultValue={entry.answer} />
          </label>
          <div className="row">
            <button type="submit">Save</button>
            <button type="button" className="secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <h3>{entry.question}</h3>
          <p>{entry.answer}</p>
        </>
      )}
      <p className="muted">
        {entry.type} · {entry.is_active ? 'active' : 'inactive'} · search {searchable(entry)}
      </p>
      <div className="row">
        <button
          type="button"
          className="secondary"
          onClick={() =>
            void run('Change', () => api('PATCH', `/knowledge-base/faq/${entry.context_id}`, { body: { is_active: !entry.is_active } }))()
          }
        >
          {entry.is_active ? 'Deactivate' : 'Activate'}
        </button>
        {!editing && (
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
        {entry.type === 'faq' && (
          <ConfirmButton
            label="Delete"
            question={`Delete the FAQ "${entry.question}"?`}
            confirmLabel="Delete"
            danger
            onConfirm={run('Delete', () => api('DELETE', `/knowledge-base/faq/${entry.context_id}`))}
          />
        )}
      </div>
      <ErrorNote error={error} />
    </li>
  );
}
