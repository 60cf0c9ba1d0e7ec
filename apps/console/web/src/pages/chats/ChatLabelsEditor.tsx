import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import type { Label } from '../../api/types';
import { ErrorNote } from '../../components/ErrorNote';
import { labelsWith } from './side-panel-view';

/**
 * The chat's labels as chips, each removable; a label added by name (one of the catalogue's, or a
 * new one, which the API creates): PATCH /v1/chats/labels with the chat's whole new list.
 */
export function ChatLabelsEditor(props: {
  chatId: string;
  phone: string;
  names: string[];
  labels: ReadonlyMap<string, Label>;
  changed: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const colour = new Map([...props.labels.values()].filter((l) => l.type === 'chat').map((l) => [l.name.toLowerCase(), l.color]));
  const set = async (labels: string) => {
    setError(null);
    try {
      await api('PATCH', '/chats/labels', { body: { labels, chat_ids: [props.chatId] }, phone: props.phone });
      props.changed();
    } catch (err) {
      setError(`The labels did not change: ${errorText(err)}`);
    }
  };
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const input = e.currentTarget.elements.namedItem('label') as HTMLInputElement;
    const name = input.value.trim();
    if (!name) return;
    input.value = '';
    void set(labelsWith(props.names, name, true));
  };
  const listId = `labels-of-${props.chatId}`;
  return (
    <div className="panel-labels">
      <ul className="chips" aria-label="Chat labels">
        {props.names.length === 0 && <li className="muted">No labels.</li>}
        {props.names.map((n) => (
          <li key={n} className="chip" data-label={n} style={{ borderColor: colour.get(n) }}>
            {n}{' '}
            <button
              type="button"
              className="link-button"
              aria-label={`Remove label ${n}`}
              onClick={() => void set(labelsWith(props.names, n, false))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <form className="row" onSubmit={add} aria-label="Label the chat">
        <label>
          Add a label
          <input name="label" list={listId} autoComplete="off" />
        </label>
        <datalist id={listId}>
          {[...props.labels.values()]
            .filter((l) => l.type === 'chat' && !props.names.includes(l.name.toLowerCase()))
            .map((l) => (
              <option key={l.label_id} value={l.name} />
            ))}
        </datalist>
        <button type="submit" className="secondary">
          Add
        </button>
      </form>
      <ErrorNote error={error} />
    </div>
  );
}
