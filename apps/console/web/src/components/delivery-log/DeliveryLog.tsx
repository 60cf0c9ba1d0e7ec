import type { ReactNode } from 'react';
import type { WebhookAttempt } from '../../api/types';
import { ListTable } from '../ListTable';
import { attemptKey, logColumns, type DeliveryLogAnswer } from './delivery-log-view';

/**
 * A delivery log, newest first (a webhook subscription's, an event sink's): each attempt with its
 * outcome and time, the receiver's answer where there is one (`withResponse`), and a Redeliver button
 * (the event sent again now, same event id). `notice` stands above a log that has attempts.
 */
export function DeliveryLog({
  log,
  loadingError,
  empty,
  outcome,
  markFailures = false,
  withResponse = false,
  notice,
  onRedeliver,
}: {
  log: DeliveryLogAnswer | null;
  loadingError: boolean;
  empty: string;
  outcome: (attempt: WebhookAttempt) => string;
  /** a failed attempt's outcome shown as an error */
  markFailures?: boolean;
  withResponse?: boolean;
  notice?: ReactNode;
  onRedeliver: (attempt: WebhookAttempt) => void;
}) {
  return (
    <>
      {log && log.attempts.length > 0 && notice}
      <ListTable
        items={log?.attempts ?? null}
        error={loadingError}
        loading="Loading the delivery log…"
        empty={empty}
        label="Delivery log"
        caption={`Delivery log, newest first (${log?.count ?? 0} attempts)`}
        columns={logColumns(withResponse)}
        row={(a) => (
          <tr key={attemptKey(a)} data-event-id={a.event_id} className={a.success ? 'ok' : 'failed'}>
            <td>{new Date(a.attempted_at).toLocaleString()}</td>
            <td>
              {a.event_type}
              <br />
              <span className="muted mono">{a.event_id}</span>
            </td>
            <td>{a.attempt}</td>
            <td data-testid="outcome" className={markFailures && !a.success ? 'error' : undefined}>
              {outcome(a)}
            </td>
            <td>{a.latency_ms} ms</td>
            {withResponse && (
              <td>
                <pre className="response">{a.response_body ?? ''}</pre>
              </td>
            )}
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
        )}
      />
    </>
  );
}
