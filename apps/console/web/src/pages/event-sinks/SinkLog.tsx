import type { WebhookAttempt } from '../../api/types';
import { DeliveryLog } from '../../components/delivery-log/DeliveryLog';
import type { DeliveryLogAnswer } from '../../components/delivery-log/delivery-log-view';
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
  log: DeliveryLogAnswer | null;
  loadingError: boolean;
  onRedeliver: (attempt: WebhookAttempt) => void;
}) {
  const failing = log && latestFailure(log.attempts);
  return (
    <DeliveryLog
      log={log}
      loadingError={loadingError}
      empty="No delivery yet: events of this name are sent as they happen."
      outcome={outcome}
      markFailures
      notice={
        failing && (
          <div className="card notice" data-testid="latest-failure">
            <p>
              <strong>The latest delivery failed:</strong> <span className="mono">{failing.reason}</span>
            </p>
            <p>{failing.advice}</p>
          </div>
        )
      }
      onRedeliver={onRedeliver}
    />
  );
}
