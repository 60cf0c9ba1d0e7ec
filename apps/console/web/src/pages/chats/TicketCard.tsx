import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { Link } from '../../app/Link';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { STATUS_TEXT, priorityText } from '../tickets/ticket-view';
import { PrioritySelect, StatusSelect } from '../tickets/TicketSelects';
import { PropertiesForm } from './PropertiesForm';
import { chatProperties, dueDateInput, labelList, ticketPatch, type CustomPropertyDef } from './side-panel-view';
import type { PanelTicketRow } from './use-side-panel';

const field = (data: FormData, name: string) => String(data.get(name) ?? '');

/**
 * One ticket of the chat: its state, and a form to change status, priority, assignee, due date and
 * labels (PATCH /v1/tickets/{ticket_id}, only the fields changed); close it with a note (the note
 * left on the chat with POST /v1/note/create, then status closed).
 */
export function TicketCard(props: {
  ticket: PanelTicketRow & { ticket_labels: string };
  chatId: string;
  phone: string;
  assignees: string[];
  /** The organization's custom property definitions (the ticket ones are shown). */
  properties: CustomPropertyDef[];
  reload: () => void;
  /** Set (a new number each time) when the keyboard asks to close this ticket: the close form opens, its note focused. */
  closeAsked?: number;
}) {
  const { ticket: t, phone } = props;
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [closing, setClosing] = useState(false);
  const noteBox = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (props.closeAsked) setClosing(true);
  }, [props.closeAsked]);
  useEffect(() => {
    if (!closing || !props.closeAsked) return;
    noteBox.current?.scrollIntoView({ block: 'nearest' });
    noteBox.current?.focus();
  }, [closing, props.closeAsked]);
  const patch = async (body: Record<string, unknown>) => {
    await api('PATCH', `/tickets/${encodeURIComponent(t.ticket_id)}`, { body, phone });
    props.reload();
  };
  const save = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const body = ticketPatch(t, {
      status: field(data, 'status'),
      priority: field(data, 'priority'),
      assignee: field(data, 'assignee'),
      due_date: field(data, 'due_date'),
      labels: field(data, 'labels'),
    });
    setError(null);
    setNote(null);
    if (!body) return setNote('Nothing to change.');
    try {
      await patch(body);
      setNote('Saved.');
    } catch (err) {
      setError(`The ticket was not changed: ${errorText(err)}`);
    }
  };
  const saveProperties = async (custom: Record<string, string | null>) => {
    setError(null);
    setNote(null);
    try {
      await patch({ custom_properties: custom });
      setNote('Saved.');
    } catch (err) {
      setError(`The ticket's properties did not change: ${errorText(err)}`);
    }
  };
  const close = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const text = field(new FormData(e.currentTarget), 'note').trim();
    setError(null);
    try {
      if (text)
        await api('POST', '/note/create', { body: { chat_id: props.chatId, message: `Ticket closed: ${t.subject}\n${text}` }, phone });
      await patch({ status: 'closed' });
      setClosing(false);
      setNote('Closed.');
    } catch (err) {
      setError(`The ticket was not closed: ${errorText(err)}`);
    }
  };
  const open = t.status !== 'closed' && t.status !== 'archived';
  const labels = labelList(t.ticket_labels);
  const key = `${t.status}/${t.priority}/${t.assignee}/${t.due_date}/${t.ticket_labels}`;
  return (
    <li className="panel-ticket" data-ticket-id={t.ticket_id}>
      <Link to={`/tickets/${t.ticket_id}`}>{t.subject}</Link>
      <span className="muted" data-testid="panel-ticket-state">
        {STATUS_TEXT[t.status ?? ''] ?? ''} · {priorityText(t.priority)} · {t.assignee ?? 'unassigned'}
        {t.due_date ? ` · due ${dueDateInput(t.due_date)}` : ''}
        {labels.length ? ` · ${labels.join(', ')}` : ''}
      </span>
      <details>
        <summary>Change</summary>
        <form key={key} className="panel-form" onSubmit={(e) => void save(e)} aria-label={`Change ticket ${t.subject}`}>
          <StatusSelect value={t.status} />
          <PrioritySelect value={t.priority} />
          <label>
            Assignee
            <select name="assignee" defaultValue={t.assignee ?? ''}>
              <option value="">unassigned</option>
              {props.assignees.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </label>
          <label>
            Due date
            <input name="due_date" type="date" defaultValue={dueDateInput(t.due_date)} />
          </label>
          <label>
            Labels
            <input name="labels" defaultValue={labels.join(', ')} placeholder="comma-separated" />
          </label>
          <button type="submit">Save ticket</button>
        </form>
        <PropertiesForm
          name={`Properties of ticket ${t.subject}`}
          values={chatProperties(props.properties, t.custom_properties, 'ticket')}
          save={saveProperties}
        />
      </details>
      {open &&
        (closing ? (
          <form className="panel-form" onSubmit={(e) => void close(e)} aria-label={`Close ticket ${t.subject}`}>
            <label>
              Closing note
              <textarea ref={noteBox} name="note" rows={2} placeholder="What was done (kept as a private note on the chat)" />
            </label>
            <span className="row">
              <button type="submit">Close ticket</button>
              <button type="button" className="secondary" onClick={() => setClosing(false)}>
                Cancel
              </button>
            </span>
          </form>
        ) : (
          <button type="button" className="secondary" onClick={() => setClosing(true)}>
            Close with a note…
          </button>
        ))}
      <ErrorNote error={error} />
      <StatusNote note={note} />
    </li>
  );
}
