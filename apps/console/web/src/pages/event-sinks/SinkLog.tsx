import type { WebhookAttempt } from '../../api/types';
import { TableHead } from '../../components/TableHead';
import { TableScroll } from '../../components/TableScroll';
import { latestFailure, outcome } from './event-sink-view';

/**
 * A sink's delivery log, newest first: each attempt with the broker's ack or its reason for failing, and
 * a Redeliver button (the event sent again now, same event id). When the newest attempt failed, its
 * reason leads, with what to do (a refused login: the credentials; an untrusted broker certificate: its CA; a refused client
 * certificate: another one).
 */
export function SinkLog({
  log,
  loadingError,
  onRedeliver,
}: {
  log: { count: number; attempts: WebhookAttempt[] } | null;
  loadingError: boolean;
  onRedeliver: (attempt: WebhookAttempt) => void;
}) {
  if (log === null) return loadingError ? null : <p role="status">Loading the delivery log…</p>;
  if (log.attempts.length === 0) return <p>No delivery yet: events of this name are sent as they happen.</p>;
  const failing = latestFailure(log.attempts);
  return (
    <>
      {failing && (
        <div className="card notice" data-testid="latest-failure">
          <p>
            <strong>The latest delivery failed:</strong> <span className="mono">{failing.reason}</span>
          </p>
          <p>{failing.advice}</p>
        </div>
      )}
      <TableScroll label="Delivery log (scrolls sideways)">
        <table className="table">
          <caption>Delivery log, newest first ({log.count} attempts)</caption>
          <TableHead columns={['When', 'Event', 'Attempt', 'Outcome', 'Time', 'Redeliver']} />
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
                <td data-testid="outcome" className={a.success ? undefined : 'error'}>
                  {outcome(a)}
                </td>
                <td>{a.latency_ms} ms</td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Redeliver ${a.event_type} ${a.event_id}`}
                    onClick={() => onRedeliver(a)}
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
