import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import { EVENT_NAMES } from '../../api/event-names';
import { Link } from '../../app/Link';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNote, StatusNote } from '../../components/ErrorNote';
import { TableHead } from '../../components/TableHead';
import { TableScroll } from '../../components/TableScroll';
import { createBody, destination, stateText, TRANSPORTS, transportLabel, type EventSink, type SinkTransport } from './event-sink-view';
import { ConfigFields, CredentialFields, formValues } from './SinkFields';

/**
 * The organization's event sinks (owners and admins; issue 36): send events to an AMQP exchange, an
 * MQTT broker or a NATS server; enable, disable, delete. Every change through /v1/event-sinks.
 */
export function EventSinksPage() {
  const [sinks, setSinks] = useState<EventSink[] | null>(null);
  const [transport, setTransport] = useState<SinkTransport>('amqp');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setSinks(await api<EventSink[]>('GET', '/event-sinks'));
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  useEffect(() => void load(), [load]);
  const create = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const events = Array.from((form.elements.namedItem('events') as HTMLSelectElement).selectedOptions, (o) => o.value);
    if (!events.length) return setError('Choose at least one event.');
    setError(null);
    setNote(null);
    try {
      const created = await api<EventSink[]>('POST', '/event-sinks', { body: createBody(transport, formValues(form), events) });
      form.reset();
      setNote(`Created ${created.length} sink(s): events are sent as they happen.`);
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  };
  const act = (label: string, run: () => Promise<unknown>) => async () => {
    setError(null);
    setNote(null);
    try {
      await run();
      await load();
    } catch (err) {
      setError(`${label}: ${errorText(err)}`);
    }
  };
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
          <label>
            Events (one sink each; Ctrl or ⌘ adds one)
            <select name="events" multiple size={4} defaultValue={['message.created']}>
              {EVENT_NAMES.map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>
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
      {sinks === null && !error && <p role="status">Loading event sinks…</p>}
      {sinks?.length === 0 && <p>No event sinks yet.</p>}
      {sinks && sinks.length > 0 && (
        <TableScroll label="Event sinks (scrolls sideways)">
          <table className="table">
            <caption>Event sinks</caption>
            <TableHead columns={['Name', 'Transport', 'Event', 'Broker', 'Credentials', 'State', 'Actions']} />
            <tbody>
              {sinks.map((s) => (
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
                        void act(s.is_subscribed ? 'Disable' : 'Enable', () =>
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
                      onConfirm={act('Delete', () => api('DELETE', `/event-sinks/${s.id}`))}
                    />
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
