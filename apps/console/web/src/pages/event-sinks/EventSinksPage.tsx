import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { Link } from '../../app/Link';
import { ConfirmButton } from '../../components/ConfirmButton';
import { EventSelect } from '../../components/delivery-log/EventSelect';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { ListTable } from '../../components/ListTable';
import { useListing } from '../../components/use-listing';
import { createBody, destination, stateText, TRANSPORTS, transportLabel, type EventSink, type SinkTransport } from './event-sink-view';
import { ConfigFields, CredentialFields, formValues } from './SinkFields';

/**
 * The organization's event sinks (owners and admins; issue 36): send events to an AMQP exchange, an
 * MQTT broker or a NATS server; enable, disable, delete. Every change through /v1/event-sinks.
 */
export function EventSinksPage() {
  const { items: sinks, error, note, act } = useListing<EventSink, EventSink[]>('/event-sinks', (a: EventSink[]) => a);
  const [transport, setTransport] = useState<SinkTransport>('amqp');
  const create = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const events = Array.from((form.elements.namedItem('events') as HTMLSelectElement).selectedOptions, (o) => o.value);
    return act(async () => {
      if (!events.length) throw new Error('Choose at least one event.');
      const created = await api<EventSink[]>('POST', '/event-sinks', { body: createBody(transport, formValues(form), events) });
      form.reset();
      return `Created ${created.length} sink(s): events are sent as they happen.`;
    });
  };
  /** A row's change (no note of its own: the table shows its effect), then the listing read again. */
  const change = (label: string, call: () => Promise<unknown>) => () =>
    act(async () => {
      await call();
      return '';
    }, `${label}: `);
  const example = TRANSPORTS.find((t) => t.value === transport)?.example;
  return (
    <>
      <form className="card" onSubmit={(e) => void create(e)} aria-label="Create an event sink">
        <h2>New event sink</h2>
        <div className="row">
          <label>
            Transport
            <select name="transport" value={transport} onChange={(e) => setTransport(e.target.value as SinkTransport)}>
              {TRANSPORTS.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Broker URL
            <input name="url" required maxLength={2048} placeholder={example} />
          </label>
          <EventSelect label="Events (one sink each; Ctrl or ⌘ adds one)" name="events" defaultValue={['message.created']} multiple />
          <label>
            Name (optional)
            <input name="name" maxLength={200} />
          </label>
        </div>
        <div className="row" key={transport}>
          <ConfigFields transport={transport} />
        </div>
        <CredentialFields key={`c-${transport}`} transport={transport} />
        <div className="row">
          <button type="submit">Create sink</button>
        </div>
      </form>
      <ErrorNote error={error} />
      <StatusNote note={note} />
      <ListTable
        items={sinks}
        error={error}
        loading="Loading event sinks…"
        empty="No event sinks yet."
        label="Event sinks"
        columns={['Name', 'Transport', 'Event', 'Broker', 'Credentials', 'State', 'Actions']}
        row={(s) => (
          <tr key={s.id} data-sink-id={s.id}>
            <td>
              <Link to={`/event-sinks/${s.id}`}>{s.name}</Link>
            </td>
            <td>{transportLabel(s.transport)}</td>
            <td>{s.event}</td>
            <td>
              <span className="link">{s.url}</span>
              <br />
              <span className="muted">{destination(s)}</span>
            </td>
            <td>{s.has_credentials ? 'stored' : 'none'}</td>
            <td data-testid="sink-state">{stateText(s)}</td>
            <td className="row">
              <button
                type="button"
                className="secondary"
                onClick={() =>
                  void change(s.is_subscribed ? 'Disable' : 'Enable', () =>
                    api('PATCH', `/event-sinks/${s.id}`, { body: { isSubscribed: !s.is_subscribed } }),
                  )()
                }
              >
                {s.is_subscribed ? 'Disable' : 'Enable'}
              </button>
              <ConfirmButton
                label="Delete"
                question={`Delete the ${transportLabel(s.transport)} sink of ${s.event} to ${s.url}? Its delivery log goes with it.`}
                confirmLabel="Delete"
                danger
                onConfirm={change('Delete', () => api('DELETE', `/event-sinks/${s.id}`))}
              />
            </td>
          </tr>
        )}
      />
    </>
  );
}
