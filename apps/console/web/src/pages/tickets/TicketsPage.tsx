import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { useRealtimeConnected, useRealtimeEvents } from '../../api/realtime';
import { TICKET_STATUSES, type Ticket, type TicketInfo } from '../../api/types';
import { Link } from '../../app/Link';
import { navigate } from '../../app/router';
import { ErrorNote } from '../../components/ErrorNote';
import { STATUS_TEXT, priorityText, ticketsPath } from './ticket-view';
import { TableHead } from '../../components/TableHead';
import { TableScroll } from '../../components/TableScroll';

export const TICKET_EVENTS = ['ticket.created', 'ticket.updated', 'ticket.deleted'] as const;

/** The team inbox's tickets (of the phones the member reaches), filtered by status and assignee; raise one on a chat. */
export function TicketsPage() {
  const [tickets, setTickets] = useState<Ticket[] | null>(null);
  const [filters, setFilters] = useState({ status: '', assignee: '' });
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setTickets((await api<{ tickets: Ticket[] }>('GET', ticketsPath(filters))).tickets);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [filters]);
  useEffect(() => void load(), [load]);
  // Live: a ticket raised or changed by anyone is a re-read of the list (at most every 300 ms), as the chats list does.
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (pending.current && clearTimeout(pending.current)), []);
  useRealtimeConnected(() => void load());
  useRealtimeEvents(TICKET_EVENTS, () => {
    pending.current ??= setTimeout(() => {
      pending.current = null;
      void load();
    }, 300);
  });
  const filter = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setFilters({ status: String(data.get('status') ?? ''), assignee: String(data.get('assignee') ?? '') });
  };
  const create = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const chat = String(data.get('chat_id') ?? '').trim();
    setError(null);
    try {
      const info = await api<TicketInfo>('POST', '/tickets/create', {
        body: { chat_id: chat.includes('@') ? chat : `${chat.replace(/\D/g, '')}@c.us`, subject: String(data.get('subject')).trim() },
      });
      navigate(`/tickets/${info.ticket.ticket_id}`);
    } catch (err) {
      setError(`New ticket: ${errorText(err)}`);
    }
  };
  return (
    <>
      <form className="row" onSubmit={filter} aria-label="Filter tickets">
        <label>
          Status
          <select name="status" defaultValue="">
            <option value="">any</option>
            {TICKET_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_TEXT[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Assignee
          <input name="assignee" type="email" placeholder="someone@example.com" />
        </label>
        <button type="submit" className="secondary">
          Filter
        </button>
      </form>
      <details className="new-ticket">
        <summary>New ticket</summary>
        <form className="row" onSubmit={(e) => void create(e)} aria-label="New ticket">
          <label>
            Chat (number or chat id)
            <input name="chat_id" required placeholder="447700900123" />
          </label>
          <label className="grow">
            Subject
            <input name="subject" required maxLength={500} />
          </label>
          <button type="submit">Create ticket</button>
        </form>
      </details>
      <ErrorNote error={error} />
      {tickets === null && !error && <p role="status">Loading tickets…</p>}
      {tickets?.length === 0 && <p>No tickets.</p>}
      {tickets && tickets.length > 0 && (
        <TableScroll label="Tickets (scrolls sideways)">
          <table className="table">
            <caption>Tickets, newest first ({tickets.length})</caption>
            <TableHead columns={['Subject', 'Chat', 'Status', 'Priority', 'Assignee', 'Raised']} />
            <tbody>
              {tickets.map((t) => (
                <tr key={t.ticket_id} data-ticket-id={t.ticket_id}>
                  <td>
                    <Link to={`/tickets/${t.ticket_id}`}>{t.subject}</Link>
                  </td>
                  <td>{t.chat_id}</td>
                  <td data-testid="status">{STATUS_TEXT[t.status ?? ''] ?? ''}</td>
                  <td>{priorityText(t.priority)}</td>
                  <td>{t.assignee ?? ''}</td>
                  <td>{new Date(t.created_at).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
