import { useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import type { Message } from '../../api/types';
import { ErrorNote } from '../../components/ErrorNote';
import { PRIORITIES } from '../tickets/ticket-view';
import { excerpt } from './conversation-view';
import { subjectFrom } from './side-panel-view';

/**
 * A new ticket on the chat (POST /v1/tickets/create with the chat's phone), or from one of its
 * messages (`quoted_message_id`: the message is attached to the ticket).
 */
export function NewTicketForm(props: {
  chatId: string;
  phone: string;
  from: Message | null;
  assignees: string[];
  done: () => void;
  cancel: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const assignee = String(data.get('assignee') ?? '');
    const body: Record<string, unknown> = {
      chat_id: props.chatId,
      subject: String(data.get('subject') ?? ''),
      priority: Number(data.get('priority') ?? 1),
    };
    if (assignee) body.assignee = assignee;
    if (props.from) body.quoted_message_id = props.from.message_id;
    setError(null);
    setBusy(true);
    try {
      await api('POST', '/tickets/create', { body, phone: props.phone });
      props.done();
    } catch (err) {
      setError(`No ticket was opened: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form key={props.from?.message_id ?? 'chat'} className="panel-form" onSubmit={(e) => void submit(e)} aria-label="New ticket">
      {props.from && (
        <p className="muted" data-ticket-from={props.from.message_id}>
          From the message: “{excerpt(props.from, 60)}”
        </p>
      )}
      <label>
        Subject
        <input name="subject" required maxLength={500} defaultValue={subjectFrom(props.from?.body)} />
      </label>
      <label>
        Priority
        <select name="priority" defaultValue="1">
          {PRIORITIES.map(([n, text]) => (
            <option key={n} value={n}>
              {text}
            </option>
          ))}
        </select>
      </label>
      <label>
        Assignee
        <select name="assignee" defaultValue="">
          <option value="">unassigned</option>
          {props.assignees.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <span className="row">
        <button type="submit" disabled={busy}>
          Open ticket
        </button>
        <button type="button" className="secondary" onClick={props.cancel}>
          Cancel
        </button>
      </span>
      <ErrorNote error={error} />
    </form>
  );
}
