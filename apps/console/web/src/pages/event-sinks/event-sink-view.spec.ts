import { SINK_SCHEMES, SINK_TRANSPORTS } from '@mapi/contracts';
import {
  configOf,
  createBody,
  credentialsOf,
  destination,
  editBody,
  failureAdvice,
  fullConfig,
  latestFailure,
  outcome,
  stateText,
  TRANSPORTS,
} from './event-sink-view';

describe('console event sinks page logic', () => {
  const sink = {
    transport: 'mqtt' as const,
    url: 'mqtt://broker.example.com',
    event: 'message.created',
    name: 'Shop bus',
    config: { topicPrefix: 'acme/mapi', protocolVersion: 5, orderByChat: false },
  };
  const unchanged = { url: sink.url, event: sink.event, name: sink.name, topicPrefix: 'acme/mapi', protocolVersion: '5' };

  it('builds each transport config from the form, leaving empty fields to the API default', () => {
    expect(configOf('amqp', { exchange: ' mapi-events ', orderByChat: true })).toEqual({ exchange: 'mapi-events', orderByChat: true });
    expect(configOf('amqp', { exchange: '' })).toEqual({ orderByChat: false });
    expect(configOf('mqtt', { topicPrefix: 'acme/mapi', protocolVersion: '5' })).toEqual({
      topicPrefix: 'acme/mapi',
      protocolVersion: 5,
      orderByChat: false,
    });
    expect(configOf('mqtt', { protocolVersion: '4' })).toEqual({ protocolVersion: 4, orderByChat: false });
    expect(configOf('nats', { subjectPrefix: 'acme.mapi', jetstream: true })).toEqual({
      subjectPrefix: 'acme.mapi',
      jetstream: true,
      orderByChat: false,
    });
    // fields of another transport are never sent (the API refuses unknown config fields)
    expect(configOf('nats', { exchange: 'x', topicPrefix: 'y' })).toEqual({ jetstream: false, orderByChat: false });
    expect(configOf('kafka', { topic: ' crm.events ', saslMechanism: 'scram-sha-512', orderByChat: true })).toEqual({
      topic: 'crm.events',
      saslMechanism: 'scram-sha-512',
      orderByChat: true,
    });
  });

  it('sends only the credentials typed in, a password and a PEM exactly as typed', () => {
    expect(credentialsOf({ username: '', password: '  ', tlsCa: '' })).toBeUndefined();
    expect(credentialsOf({ username: ' crm ', password: ' pass word ', tlsKey: '-----BEGIN KEY-----\nx\n' })).toEqual({
      username: 'crm',
      password: ' pass word ',
      tlsKey: '-----BEGIN KEY-----\nx\n',
    });
  });

  it('creates one sink per chosen event; credentials and name only when given', () => {
    expect(createBody('amqp', { url: ' amqp://rabbit.example.com/prod ', exchange: 'mapi-events' }, ['message.created'])).toEqual({
      transport: 'amqp',
      url: 'amqp://rabbit.example.com/prod',
      events: 'message.created',
      config: { exchange: 'mapi-events', orderByChat: false },
    });
    expect(
      createBody('nats', { url: 'nats://n.example.com', name: 'Bus', token: 's3cret', jetstream: true }, [
        'chat.created',
        'ticket.created',
      ]),
    ).toEqual({
      transport: 'nats',
      url: 'nats://n.example.com',
      events: ['chat.created', 'ticket.created'],
      config: { jetstream: true, orderByChat: false },
      credentials: { token: 's3cret' },
      name: 'Bus',
    });
  });

  it('sends only what an edit changed, the config whole, and nothing when nothing did', () => {
    expect(editBody(sink, unchanged)).toBeNull();
    expect(editBody(sink, { ...unchanged, event: 'chat.created' })).toEqual({ event: 'chat.created' });
    expect(editBody(sink, { ...unchanged, protocolVersion: '4', orderByChat: true })).toEqual({
      config: { topicPrefix: 'acme/mapi', protocolVersion: 4, orderByChat: true },
    });
    // the stored config before the API filled defaults in compares equal to the form showing those defaults
    expect(
      editBody({ ...sink, transport: 'amqp', config: {} }, { url: sink.url, event: sink.event, name: sink.name, exchange: 'amq.topic' }),
    ).toBeNull();
    // empty credentials keep the stored ones; typed ones replace them
    expect(editBody(sink, { ...unchanged, username: '', password: '' })).toBeNull();
    expect(editBody(sink, { ...unchanged, username: 'crm', password: 'new' })).toEqual({
      credentials: { username: 'crm', password: 'new' },
    });
    expect(editBody(sink, { ...unchanged, url: 'mqtts://b2.example.com', name: 'Renamed' })).toEqual({
      url: 'mqtts://b2.example.com',
      name: 'Renamed',
    });
  });

  it('fills in the API defaults of each transport', () => {
    expect(fullConfig('amqp', {})).toEqual({ exchange: 'amq.topic', orderByChat: false });
    expect(fullConfig('mqtt', {})).toEqual({ topicPrefix: 'mapi', protocolVersion: 4, orderByChat: false });
    expect(fullConfig('nats', { jetstream: true })).toEqual({ subjectPrefix: 'mapi', jetstream: true, orderByChat: false });
    expect(fullConfig('kafka', {})).toEqual({ topic: 'mapi-events', saslMechanism: 'plain', orderByChat: true });
  });

  it("names where a sink's messages go and its state", () => {
    expect(destination({ transport: 'amqp', event: 'message.created', config: { exchange: 'ex' } })).toBe(
      'exchange ex, routing key message.created',
    );
    expect(destination(sink)).toBe('topic acme/mapi/message.created, QoS 1, MQTT 5');
    expect(destination({ transport: 'nats', event: 'chat.created', config: { jetstream: true } })).toBe(
      'subject mapi.chat.created, JetStream (deduplicated by event id)',
    );
    expect(destination({ transport: 'kafka', event: 'chat.created', config: {} })).toBe('topic mapi-events, key = chat id, acks = all');
    expect(stateText({ is_subscribed: true, disabled_reason: null })).toBe('active');
    expect(stateText({ is_subscribed: false, disabled_reason: 'paused' })).toBe('disabled');
    expect(stateText({ is_subscribed: false, disabled_reason: 'failing' })).toBe('disabled: kept failing');
  });

  it("describes an attempt by the broker's ack or its reason, and a refused login as a credentials problem", () => {
    expect(outcome({ success: true, error: null })).toBe('delivered · acknowledged by the broker');
    expect(outcome({ success: false, error: 'mqtt: Connection refused: Not authorized' })).toBe(
      'failed · mqtt: Connection refused: Not authorized',
    );
    expect(outcome({ success: false, error: null })).toBe('failed · no answer from the broker');
    expect(latestFailure([])).toBeNull();
    expect(
      latestFailure([
        { success: true, error: null },
        { success: false, error: 'x' },
      ]),
    ).toBeNull();
    for (const reason of [
      'mqtt: Connection refused: Not authorized',
      'amqp: Handshake terminated by server: 403 (ACCESS_REFUSED) with message "ACCESS_REFUSED - Login was refused"',
      "nats: 'Authorization Violation'",
      'nats: AUTHORIZATION_VIOLATION',
      'kafka: SASL SCRAM SHA512 authentication failed: Authentication failed during authentication due to invalid credentials',
    ])
      expect(latestFailure([{ success: false, error: reason }])?.advice).toMatch(/^The broker refused the credentials/);
    expect(latestFailure([{ success: false, error: 'amqp: Channel closed by server: 404 (NOT-FOUND) no exchange' }])).toEqual({
      reason: 'amqp: Channel closed by server: 404 (NOT-FOUND) no exchange',
      advice: expect.stringMatching(/^The delivery is retried/),
    });
  });

  it('advises the CA for an untrusted broker certificate and another client certificate for a refused one', () => {
    const ca = /^The broker's certificate is not trusted: give the CA that issued it as the CA certificate \(tlsCa\)/;
    const clientCert = /^The broker refused our client certificate: give a client certificate and key \(tlsCert, tlsKey\)/;
    // the dispatcher's words (libs/webhooks-feature/src/sinks/tls-error.ts), and Node's own before them
    for (const reason of [
      "mqtt: self-signed certificate in certificate chain (TLS: the broker's certificate is not trusted: give the CA that issued it as tlsCa)",
      "amqp: unable to verify the first certificate (TLS: the broker's certificate is not trusted: give the CA that issued it as tlsCa)",
      "nats: certificate has expired (TLS: the broker's certificate is not trusted: give the CA that issued it as tlsCa)",
      'kafka: Connection error: unable to get local issuer certificate',
    ])
      expect(failureAdvice(reason)).toMatch(ca);
    for (const reason of [
      'mqtt: the broker refused our client certificate at the TLS handshake (tlsv13 alert certificate required): give tlsCert and tlsKey issued by a CA it trusts',
      'amqp: the broker refused our client certificate at the TLS handshake (tlsv1 alert unknown ca): give tlsCert and tlsKey issued by a CA it trusts',
      'nats: CONNECTION_REFUSED: the server dropped the TLS connection, as nats-server does when it refuses the client certificate',
      'kafka: Connection error: ... alert certificate required',
    ])
      expect(failureAdvice(reason)).toMatch(clientCert);
    // neither a login refusal nor a missing exchange reads as a certificate problem
    expect(failureAdvice('mqtt: Connection refused: Not authorized')).toMatch(/^The broker refused the credentials/);
    expect(failureAdvice('amqp: Channel closed by server: 404 (NOT-FOUND) no exchange')).toMatch(/^The delivery is retried/);
    expect(
      latestFailure([
        {
          success: false,
          error:
            "mqtt: self-signed certificate in certificate chain (TLS: the broker's certificate is not trusted: give the CA that issued it as tlsCa)",
        },
      ])?.advice,
    ).toMatch(ca);
  });

  it("offers exactly the contracts' transports with their URL schemes (a new transport shows in the page)", () => {
    expect(TRANSPORTS.map((t) => t.value)).toEqual([...SINK_TRANSPORTS]);
    for (const t of TRANSPORTS) expect(t.schemes).toEqual([...SINK_SCHEMES[t.value]]);
    for (const t of TRANSPORTS) expect(SINK_SCHEMES[t.value]).toContain(new URL(t.example).protocol.replace(/:$/, ''));
  });
});
