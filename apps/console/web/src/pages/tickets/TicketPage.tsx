import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { useRealtimeEvents } from '../../api/realtime';
import { digits, type TicketInfo } from '../../api/types';
import { Link } from '../../app/Link';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { chatPath } from '../chats/ChatList';
import { STATUS_TEXT, priorityText, ticketChanges } from './ticket-view';
import { PrioritySelect, StatusSelect } from './TicketSelects';

/** One ticket: its chat and attached messages; change its status, assignee and priority. */
export function TicketPage({ id }: { id: string }) {
  const [info, setInfo] = useState<TicketInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = useCallback(
    () => api<TicketInfo>('GET', `/tickets/${encodeURIComponent(id)}`).then(setInfo, (err) => setError(errorText(err))),
    [id],
  );
  useEffect(() => void load(), [load]);
  // Someone else changing this ticket: read it again (the form shows the new values).
  useRealtimeEvents(['ticket.updated', 'ticket.deleted'], (_name, data) => {
    if ((data as { ticket_id?: string }).ticket_id === id) void load();
  });
  const save = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!info) return;
    const data = new FormData(e.currentTarget);
    const body = ticketChanges(info.ticket, {
      status: String(data.get('status') ?? ''),
      priority: String(data.get('priority') ?? ''),
      assignee: String(data.get('assignee') ?? ''),
    });
    setError(null);
    setNote(null);
    if (!body) return setNote('Nothing to change.');
    try {
      setInfo(await api<TicketInfo>('PATCH', `/tickets/${encodeURIComponent(id)}`, { body }));
      setNote('Saved.');
    } catch (err) {
      setError(errorText(err));
    }
  };
  const t = info?.ticket;
  return (
    <>
      <p>
        <Link to="/tickets">← All tickets</Link>
      </p>
      <ErrorNote error={error} />
      {!info && !error && <p role="status">Loading the ticket…</p>}
      {info && t && (
        <section className="card" aria-labelledby="ticket-subject" data-ticket-id={t.ticket_id}>
          <h2 id="ticket-subject">{t.subject}</h2>
          <p className="muted">
            <span data-testid="ticket-state">
              {STATUS_TEXT[t.status ?? ''] ?? ''} · {priorityText(t.priority)} · {t.assignee ?? 'unassigned'}
            </span>{' '}
            · raised {new Date(t.created_at).toLocaleString()} on{' '}
            <Link to={chatPath(info.chat)}>{info.chat.chat_name || digits(info.chat.chat_id)}</Link> (+{digits(info.chat.org_phone)})
            {t.ticket_labels ? ` · labels ${t.ticket_labels}` : ''}
          </p>
          <form
            key={`${t.status}/${t.priority}/${t.assignee}`}
            className="row"
            onSubmit={(e) => void save(e)}
            aria-label="Change the ticket"
          >
            <StatusSelect value={t.status} />
            <PrioritySelect value={t.priority} />
            <label>
              Assignee
              <input name="assignee" type="email" defaultValue={t.assignee ?? ''} placeholder="unassigned" />
            </label>
            <button type="submit">Save</button>
          </form>
          <StatusNote note={note} />
          {info.attached_messages.length > 0 && (
            <>
              <h3>Attached messages</h3>
              <ul>
                {info.attached_messages.map((m) => (
                  <li key={m.message_id}>{m.body ?? '(no text)'}</li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
    </>
  );
}
