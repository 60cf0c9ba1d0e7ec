import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorText } from '../../api/client';
import { useRealtimeConnected, useRealtimeEvents } from '../../api/realtime';
import type { Phone } from '../../api/types';
import { Link } from '../../app/Link';
import { ErrorNote } from '../../components/ErrorNote';
import { phoneLabel } from '../../components/PhonePicker';
import { TableHead } from '../../components/TableHead';
import { TableScroll } from '../../components/TableScroll';
import { CsvButton } from '../analytics/CsvButton';
import { chatPath, duration, type RightNow } from '../analytics/analytics-view';

/** Read again this often while open, and shortly after a message or ticket event (the figures follow the stream). */
const REFRESH_MS = 30_000;
const AFTER_EVENT_MS = 1_500;
const EVENTS = ['message.created', 'message.flagged', 'message.unflagged', 'ticket.created', 'ticket.updated', 'ticket.deleted'] as const;
const LIMIT = 100;

/**
 * "Right now" (GET /v1/analytics/now): chats waiting for a response (longest first), flagged chats,
 * open tickets (oldest first), each linked to its chat or ticket, and how many chats have unread messages
 * (by the signed-in member's own read marks, as the chat list's unread filter). Kept in place while read
 * again, so nothing jumps.
 */
export function DashboardPage() {
  const [now, setNow] = useState<RightNow | null>(null);
  const [phones, setPhones] = useState<Map<string, Phone>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setNow(await api<RightNow>('GET', `/analytics/now?limit=${LIMIT}`));
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    api<Phone[]>('GET', '/phones/all').then(
      (list) => setPhones(new Map(list.map((p) => [p.phone_id, p]))),
      () => undefined,
    );
    return () => clearInterval(timer);
  }, [load]);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (pending.current && clearTimeout(pending.current)), []);
  useRealtimeConnected(() => void load());
  useRealtimeEvents(EVENTS, () => {
    pending.current ??= setTimeout(() => {
      pending.current = null;
      void load();
    }, AFTER_EVENT_MS);
  });
  const phoneText = (id: string) => {
    const p = phones.get(id);
    return p ? phoneLabel(p) : id;
  };
  const chatLink = (phoneId: string, chatId: string) => <Link to={chatPath(chatId, phones.get(phoneId)?.org_phone)}>{chatId}</Link>;
  const more = (shown: number, count: number) => (count > shown ? `, the first ${shown} shown` : '');
  return (
    <>
      <ErrorNote error={error} />
      {now === null && !error && <p role="status">Loading…</p>}
      {now && (
        <>
          <dl className="counts" aria-label="Right now" data-testid="now-counts">
            <div>
              <dt>Waiting for a response</dt>
              <dd data-count="waiting">{now.waiting.count}</dd>
            </div>
            <div>
              <dt>Flagged chats</dt>
              <dd data-count="flagged">{now.flagged.count}</dd>
            </div>
            <div>
              <dt>Open tickets</dt>
              <dd data-count="open-tickets">{now.open_tickets.count}</dd>
            </div>
            <div>
              <dt>
                <Link to="/chats?unread=1">Unread chats</Link>
              </dt>
              <dd data-count="unread">{now.unread_chats ?? '–'}</dd>
            </div>
          </dl>
          <div className="row spread">
            <p className="muted">As of {new Date(now.as_of).toLocaleTimeString()}; read again every 30 s and after new messages.</p>
            <CsvButton path={`/analytics/now?limit=${LIMIT}`} what="right now" fallbackName="analytics-now.csv" />
          </div>
          <section className="section" aria-labelledby="waiting-h">
            <h2 id="waiting-h">Waiting for a response</h2>
            {now.waiting.chats.length === 0 ? (
              <p>No chat is waiting.</p>
            ) : (
              <TableScroll label="Waiting chats (scrolls sideways)">
                <table className="table">
                  <caption>
                    Longest wait first ({now.waiting.count}
                    {more(now.waiting.chats.length, now.waiting.count)})
                  </caption>
                  <TableHead columns={['Chat', 'Phone', 'Waiting', 'Since']} />
                  <tbody>
                    {now.waiting.chats.map((c) => (
                      <tr key={`${c.phone_id}/${c.chat_id}`} data-waiting-chat={c.chat_id}>
                        <td>{chatLink(c.phone_id, c.chat_id)}</td>
                        <td>{phoneText(c.phone_id)}</td>
                        <td>{duration(c.waiting_ms)}</td>
                        <td>{new Date(c.waiting_since).toLocaleString()}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </section>
          <section className="section" aria-labelledby="flagged-h">
            <h2 id="flagged-h">Flagged chats</h2>
            {now.flagged.chats.length === 0 ? (
              <p>No flagged chat.</p>
            ) : (
              <TableScroll label="Flagged chats (scrolls sideways)">
                <table className="table">
                  <caption>
                    Most flagged first ({now.flagged.count}
                    {more(now.flagged.chats.length, now.flagged.count)})
                  </caption>
                  <TableHead columns={['Chat', 'Phone', 'Flagged messages']} />
                  <tbody>
                    {now.flagged.chats.map((c) => (
                      <tr key={`${c.phone_id}/${c.chat_id}`} data-flagged-chat={c.chat_id}>
                        <td>{chatLink(c.phone_id, c.chat_id)}</td>
                        <td>{phoneText(c.phone_id)}</td>
                        <td>{c.flagged_messages}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </section>
          <section className="section" aria-labelledby="tickets-h">
            <h2 id="tickets-h">Open tickets</h2>
            {now.open_tickets.tickets.length === 0 ? (
              <p>No open ticket.</p>
            ) : (
              <TableScroll label="Open tickets (scrolls sideways)">
                <table className="table">
                  <caption>
                    Oldest first ({now.open_tickets.count}
                    {more(now.open_tickets.tickets.length, now.open_tickets.count)})
                  </caption>
                  <TableHead columns={['Ticket', 'Chat', 'Status', 'Assignee', 'Open for']} />
                  <tbody>
                    {now.open_tickets.tickets.map((t) => (
                      <tr key={t.ticket_id} data-open-ticket={t.ticket_id}>
                        <td>
                          <Link to={`/tickets/${t.ticket_id}`}>Ticket {t.ticket_id.slice(0, 8)}</Link>
                        </td>
                        <td>{chatLink(t.phone_id, t.chat_id)}</td>
                        <td>{t.status === 'inprogress' ? 'in progress' : t.status}</td>
                        <td>{t.assignee ?? 'unassigned'}</td>
                        <td>{duration(t.open_ms)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </section>
        </>
      )}
    </>
  );
}
