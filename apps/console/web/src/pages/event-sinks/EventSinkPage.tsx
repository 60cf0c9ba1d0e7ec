import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { EVENT_NAMES } from '../../api/event-names';
import type { WebhookAttempt } from '../../api/types';
import { Link } from '../../app/Link';
import { navigate } from '../../app/router';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { replayWindow } from '../webhooks/webhook-view';
import { destination, editBody, stateText, transportLabel, type EventSink } from './event-sink-view';
import { SinkLog } from './SinkLog';
import { ConfigFields, CredentialFields, formValues } from './SinkFields';

/** The log is read again this often while the page is open (new attempts, retries). */
const REFRESH_MS = 2_000;

/** One event sink: edit it (address, event, settings, credentials), enable or disable, delete, replay, its delivery log, redeliver. */
export function EventSinkPage({ id }: { id: string }) {
  const [sink, setSink] = useState<EventSink | null>(null);
  const [log, setLog] = useState<{ count: number; attempts: WebhookAttempt[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  // a new key after each save: the form starts again from the stored sink, its credential fields empty
  const [saves, setSaves] = useState(0);
  const loadLog = useCallback(async () => {
    try {
      setLog(await api('GET', `/event-sinks/${id}/deliveries?limit=100`));
    } catch (err) {
      setError(errorText(err));
    }
  }, [id]);
  useEffect(() => {
    api<EventSink>('GET', `/event-sinks/${id}`).then(setSink, (err) => setError(errorText(err)));
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
  const patch = (label: string, body: Record<string, unknown>, done: string) =>
    run(label, async () => {
      setSink(await api<EventSink>('PATCH', `/event-sinks/${id}`, { body }));
      setSaves((n) => n + 1);
      return done;
    });
  const save = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!sink) return;
    const body = editBody(sink, formValues(e.currentTarget));
    if (!body) return setNote('Nothing to change.');
    void patch('Save', body, 'Saved.');
  };
  const replay = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const range = replayWindow(String(data.get('from') ?? ''), String(data.get('to') ?? ''));
    if ('error' in range) return setError(range.error);
    void run('Replay', async () => {
      const answer = await api<{ scheduled: number }>('POST', `/event-sinks/${id}/replay`, { body: range });
      return `Replay: ${answer.scheduled} event(s) scheduled.`;
    });
  };
  return (
    <>
      <p>
        <Link to="/event-sinks">← All event sinks</Link>
      </p>
      <ErrorNote error={error} />
      <StatusNote note={note} />
      {sink && (
        <section aria-labelledby="sink-title" className="card">
          <h2 id="sink-title">{sink.name}</h2>
          <p className="muted">
            {transportLabel(sink.transport)} · {destination(sink)} · <span data-testid="sink-state">{stateText(sink)}</span> · since{' '}
            {new Date(sink.subscribed_at).toLocaleString()} · {sink.id}
          </p>
          <form key={`${sink.id}/${saves}`} onSubmit={save} aria-label="Edit the event sink">
            <div className="row">
              <label>
                Broker URL
                <input name="url" required defaultValue={sink.url} maxLength={2048} />
              </label>
              <label>
                Event
                <select name="event" defaultValue={sink.event}>
                  {EVENT_NAMES.map((n) => (
                    <option key={n}>{n}</option>
                  ))}
                </select>
              </label>
              <label>
                Name
                <input name="name" defaultValue={sink.name} maxLength={200} />
              </label>
            </div>
            <div className="row">
              <ConfigFields transport={sink.transport} config={sink.config} />
            </div>
            <CredentialFields transport={sink.transport} stored={sink.has_credentials} />
            <p className="muted">
              Credentials saved here, or removed, apply to every sink created with this one that has the same broker URL.
            </p>
            <div className="row">
              <button type="submit">Save</button>
              <button
                type="button"
                className="secondary"
                onClick={() =>
                  void patch(
                    sink.is_subscribed ? 'Disable' : 'Enable',
                    { isSubscribed: !sink.is_subscribed },
                    sink.is_subscribed ? 'Disabled: no event is sent until it is enabled.' : 'Enabled.',
                  )
                }
              >
                {sink.is_subscribed ? 'Disable' : 'Enable'}
              </button>
              {sink.has_credentials && (
                <ConfirmButton
                  label="Remove credentials"
                  question="Remove the stored credentials? The broker must then accept the sink without them."
                  confirmLabel="Remove"
                  onConfirm={() => patch('Remove credentials', { credentials: null }, 'Credentials removed.')}
                />
              )}
              <ConfirmButton
                label="Delete"
                question={`Delete this sink of ${sink.event} to ${sink.url}? Its delivery log goes with it.`}
                confirmLabel="Delete"
                danger
                onConfirm={() =>
                  run('Delete', async () => {
                    await api('DELETE', `/event-sinks/${id}`);
                    navigate('/event-sinks');
                  })
                }
              />
            </div>
          </form>
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
      <SinkLog
        log={log}
        loadingError={!!error}
        onRedeliver={(a) =>
          void run('Redeliver', async () => {
            await api('POST', `/event-sinks/${id}/redeliver`, { body: { eventId: a.event_id } });
            await loadLog();
            return `Event ${a.event_id} scheduled again.`;
          })
        }
      />
    </>
  );
}
