import { fullConfig, type SinkTransport } from './event-sink-view';

/**
 * The transport's settings (event-sink-view.ts configOf reads them back): the exchange for AMQP, the
 * topic prefix and protocol version for MQTT, the subject prefix and JetStream for NATS, the topic and
 * SASL mechanism for Kafka; a chat's events in order for every transport. `config`: the stored one (an
 * edit), else the API's defaults.
 */
export function ConfigFields({ transport, config = {} }: { transport: SinkTransport; config?: Record<string, unknown> }) {
  const c = fullConfig(transport, config);
  return (
    <>
      {transport === 'amqp' && (
        <label>
          Exchange (must exist)
          <input name="exchange" defaultValue={String(c.exchange)} maxLength={255} required />
        </label>
      )}
      {transport === 'mqtt' && (
        <>
          <label>
            Topic prefix
            <input name="topicPrefix" defaultValue={String(c.topicPrefix)} maxLength={200} required />
          </label>
          <label>
            MQTT version
            <select name="protocolVersion" defaultValue={String(c.protocolVersion)}>
              <option value="4">3.1.1</option>
              <option value="5">5 (headers as user properties)</option>
            </select>
          </label>
        </>
      )}
      {transport === 'nats' && (
        <>
          <label>
            Subject prefix
            <input name="subjectPrefix" defaultValue={String(c.subjectPrefix)} maxLength={200} required />
          </label>
          <label className="check">
            <input type="checkbox" name="jetstream" defaultChecked={c.jetstream === true} />
            JetStream publish (deduplicated by event id)
          </label>
        </>
      )}
      {transport === 'kafka' && (
        <>
          <label>
            Topic (must exist; key = chat id)
            <input name="topic" defaultValue={String(c.topic)} maxLength={249} required />
          </label>
          <label>
            SASL mechanism (with a username and password)
            <select name="saslMechanism" defaultValue={String(c.saslMechanism)}>
              <option value="plain">PLAIN</option>
              <option value="scram-sha-256">SCRAM-SHA-256</option>
              <option value="scram-sha-512">SCRAM-SHA-512</option>
            </select>
          </label>
        </>
      )}
      <label className="check">
        <input type="checkbox" name="orderByChat" defaultChecked={c.orderByChat === true} />
        Deliver a chat&apos;s events in order
      </label>
    </>
  );
}

const TLS_SCHEMES: Record<SinkTransport, string> = { amqp: 'amqps', mqtt: 'mqtts', nats: 'tls', kafka: 'kafkas' };

/**
 * Credentials and TLS material: write-only. The fields start empty, always (the API never answers
 * them); `stored` says whether the sink has some, and then an empty field keeps them.
 */
export function CredentialFields({ transport, stored }: { transport: SinkTransport; stored?: boolean }) {
  return (
    <fieldset>
      <legend>Credentials{stored === undefined ? ' (optional)' : stored ? ': stored, never shown' : ': none'}</legend>
      <p className="muted">
        {stored
          ? 'Type new ones to replace them; empty fields keep the stored ones.'
          : 'Sealed at rest, never shown again, never logged. Leave empty for an open broker.'}
      </p>
      <div className="row">
        <label>
          Username
          <input name="username" autoComplete="off" maxLength={500} />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="new-password" maxLength={2000} />
        </label>
        {transport === 'nats' && (
          <label>
            Token
            <input name="token" type="password" autoComplete="new-password" maxLength={4000} />
          </label>
        )}
      </div>
      <details>
        <summary>TLS certificates (for {TLS_SCHEMES[transport]}:// addresses)</summary>
        <div className="row">
          <label>
            CA certificate (PEM)
            <textarea name="tlsCa" rows={3} autoComplete="off" spellCheck={false} />
          </label>
          <label>
            Client certificate (PEM)
            <textarea name="tlsCert" rows={3} autoComplete="off" spellCheck={false} />
          </label>
          <label>
            Client key (PEM)
            <textarea name="tlsKey" rows={3} autoComplete="off" spellCheck={false} />
          </label>
        </div>
      </details>
    </fieldset>
  );
}

/** A form's values as event-sink-view.ts takes them: text fields as strings, checkboxes as booleans. */
export function formValues(form: HTMLFormElement): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const el of Array.from(form.elements)) {
    if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) || !el.name) continue;
    if (el instanceof HTMLInputElement && el.type === 'checkbox') values[el.name] = el.checked;
    else if (!(el instanceof HTMLSelectElement && el.multiple)) values[el.name] = el.value;
  }
  return values;
}
