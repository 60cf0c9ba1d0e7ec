import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { EVENT_NAMES } from '../../api/event-names';
import type { WebhookAttempt, WebhookSubscription } from '../../api/types';
import { Link } from '../../app/Link';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { SecretNote } from './SecretNote';
import { editBody, outcome, replayWindow, subscriptionName } from './webhook-view';
import { TableHead } from '../../components/TableHead';
import { TableScroll } from '../../components/TableScroll';

/** The log is read again this often while the page is open (new attempts, redeliveries). */
const REFRESH_MS = 2_000;

/** One subscription: edit it, rotate its secret, its delivery log (newest first), redeliver, replay. */
export function WebhookPage({ id }: { id: string }) {
  const [sub, setSub] = useState<WebhookSubscription | null>(null);
  const [log, setLog] = useState<{ count: number; attempts: WebhookAttempt[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ id: string; secret: string } | null>(null);
  const loadLog = useCallback(async () => {
    try {
      setLog(await api('GET', `/webhooks/${id}/deliveries?limit=100`));
    } catch (err) {
      setError(errorText(err));
    }
  }, [id]);
  useEffect(() => {
    api<WebhookSubscription>('GET', `/webhooks/${id}`).then(setSub, (err) => setError(errorText(err)));
    void loadLog();
    const timer = setInterval(() => void loadLog(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [id, loadLog]);
  const run = async (label: string, call: () => Promise<string | void>) => {
    setError(null);
    setNote(null);
    try {
      const done = await call();
      if (done) setNote(done);
    } catch (err) {
      setError(`${label}: ${errorText(err)}`);
    }
  };
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    if (!sub) return;
    const body = editBody(sub, {
      hookUrl: String(data.get('hookUrl') ?? ''),
      integrationName: String(data.get('event') ?? ''),
      name: String(data.get('name') ?? ''),
    });
    if (!body) return setNote('Nothing to change.');
    void run('Save', async () => {
      setSub(await api<WebhookSubscription>('PATCH', `/webhooks/${id}`, { body }));
      return 'Saved.';
    });
  };
  const replay = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const range = replayWindow(String(data.get('from') ?? ''), String(data.get('to') ?? ''));
    if ('error' in range) return setError(range.error);
    void run('Replay', async () => {
      const answer = await api<{ scheduled: number }>('POST', `/webhooks/${id}/replay`, { body: range });
      return `Replay: ${answer.scheduled} event(s) scheduled.`;
    });
  };
  return (
    <>
      <p>
        <Link to="/webhooks">← All subscriptions</Link>
      </p>
      <ErrorNote error={error} />
      <StatusNote note={note} />
      {sub && (
        <section aria-labelledby="sub-title" className="card">
          <h2 id="sub-title">{subscriptionName(sub)}</h2>
          <p className="muted">
            {sub.is_subscribed ? 'active' : 'paused'} · since {new Date(sub.subscribed_at).toLocaleString()} · {sub.id}
          </p>
          <form key={`${sub.hook_url}/${sub.integration_name}`} className="row" onSubmit={save} aria-label="Edit the subscription">
            <label>
              Receiver URL
              <input name="hookUrl" type="url" required defaultValue={sub.hook_url} maxLength={2048} />
            </label>
            <label>
              Event
              <select name="event" defaultValue={sub.integration_name}>
                {EVENT_NAMES.map((n) => (
                  <option key={n}>{n}</option>
                ))}
              </select>
            </label>
            <label>
              Name
              <input name="name" defaultValue={sub.integration_metadata?.name ?? ''} maxLength={200} />
            </label>
            <button type="submit">Save</button>
            <ConfirmButton
              label="Rotate secret"
              question="Replace the signing secret? The old one keeps verifying for the rotation overlap (24 h by default), then only the new one does."
              confirmLabel="Rotate"
              onConfirm={() => run('Rotate', async () => void setSecret(await api('POST', `/webhooks/${id}/secret/rotate`)))}
            />
          </form>
          <SecretNote secret={secret} onDone={() => setSecret(null)} />
        </section>
      )}
      <form className="row" onSubmit={replay} aria-label="Replay events">
        <label>
          Replay events from
          <input name="from" type="datetime-local" step={1} />
        </label>
        <label>
          to
          <input name="to" type="datetime-local" step={1} />
        </label>
        <button type="submit" className="secondary">
          Replay
        </button>
      </form>
      {log === null && !error && <p role="status">Loading the delivery log…</p>}
      {log && log.attempts.length === 0 && <p>No delivery yet: events of this name are delivered as they happen.</p>}
      {log && log.attempts.length > 0 && (
        <TableScroll label="Delivery log (scrolls sideways)">
          <table className="table">
            <caption>Delivery log, newest first ({log.count} attempts)</caption>
            <TableHead columns={['When', 'Event', 'Attempt', 'Outcome', 'Time', 'Response', 'Redeliver']} />
            <tbody>
              {log.attempts.map((a) => (
                <tr key={`${a.event_id}/${a.attempt}/${a.attempted_at}`} data-event-id={a.event_id} className={a.success ? 'ok' : 'failed'}>
                  <td>{new Date(a.attempted_at).toLocaleString()}</td>
                  <td>
                    {a.event_type}
                    <br />
                    <span className="muted mono">{a.event_id}</span>
                  </td>
                  <td>{a.attempt}</td>
                  <td data-testid="outcome">{outcome(a)}</td>
                  <td>{a.latency_ms} ms</td>
                  <td>
                    <pre className="response">{a.response_body ?? ''}</pre>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Redeliver ${a.event_type} ${a.event_id}`}
                      onClick={() =>
                        void run('Redeliver', async () => {
                          await api('POST', `/webhooks/${id}/redeliver`, { body: { eventId: a.event_id } });
                          await loadLog();
                          return `Event ${a.event_id} scheduled again.`;
                        })
                      }
                    >
                      Redeliver
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
