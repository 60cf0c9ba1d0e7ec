import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { Link } from '../../app/Link';
import { navigate } from '../../app/router';
import { ConfirmButton } from '../../components/ConfirmButton';
import { EventSelect } from '../../components/delivery-log/EventSelect';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { ReplayForm } from '../../components/delivery-log/ReplayForm';
import { useDeliveryLog } from '../../components/delivery-log/use-delivery-log';
import { destination, editBody, stateText, transportLabel, type EventSink } from './event-sink-view';
import { SinkLog } from './SinkLog';
import { ConfigFields, CredentialFields, formValues } from './SinkFields';

/** One event sink: edit it (address, event, settings, credentials), enable or disable, delete, replay, its delivery log, redeliver. */
export function EventSinkPage({ id }: { id: string }) {
  const { item: sink, setItem: setSink, run, setNote, ...delivery } = useDeliveryLog<EventSink>(`/event-sinks/${id}`);
  // a new key after each save: the form starts again from the stored sink, its credential fields empty
  const [saves, setSaves] = useState(0);
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
  return (
    <>
      <p>
        <Link to="/event-sinks">← All event sinks</Link>
      </p>
      <ErrorNote error={delivery.error} />
      <StatusNote note={delivery.note} />
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
              <EventSelect defaultValue={sink.event} />
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
      <ReplayForm onReplay={delivery.replay} onError={delivery.setError} />
      <SinkLog log={delivery.log} loadingError={!!delivery.error} onRedeliver={delivery.redeliver} />
    </>
  );
}
