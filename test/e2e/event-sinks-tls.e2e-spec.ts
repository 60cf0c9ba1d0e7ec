import { connect as natsConnect, type NatsConnection } from 'nats';
import { PrivateMosquitto, PrivateNats, PrivateRabbitMQ, randomSuffix, testCertificates, type TestCertificates } from '@mapi/testing';
import {
  emit,
  emittedSince,
  emittedIds,
  failedAttempt,
  listenAmqp,
  listenMqtt,
  listenNats,
  sinkStack,
  type Listener,
  type SinkEnv,
} from './support/event-sinks';
import { until } from './support/http';

/**
 * Event sinks over TLS with client certificates (issue 36: "connection settings (URL, credentials, TLS,
 * client certificates)"), through the API and the dispatcher, against brokers the test starts with a
 * throwaway CA (openssl): a Mosquitto with an mqtts listener (require_certificate), a nats-server with
 * --tlsverify (tls://), a RabbitMQ with an amqps listener (verify_peer, fail_if_no_peer_cert). Per
 * broker: a sink given the CA, a client certificate and its key as credentials delivers; one without
 * the client certificate and one with a CA that did not issue the broker's certificate each show the
 * TLS failure in the delivery log (while the first delivers). The PEMs are never answered or logged.
 */
jest.setTimeout(60_000);

/** A refused client certificate, in the delivery log's words (an alert at the handshake, or nats-server dropping the connection). */
const REFUSED =
  /the broker refused our client certificate at the TLS handshake \(.*alert .*\)|the server dropped the TLS connection, as nats-server does when it refuses the client certificate/;
const UNTRUSTED = /\(TLS: the broker's certificate is not trusted: give the CA that issued it as tlsCa\)$/;

describe('event sinks: TLS with client certificates', () => {
  let env: SinkEnv;
  let certs: TestCertificates;
  let otherCa: string;
  let mosquitto: PrivateMosquitto;
  let nats: PrivateNats;
  let rabbit: PrivateRabbitMQ;
  let natsSub: NatsConnection;
  const listeners: Listener[] = [];
  const answers: string[] = [];
  const suffix = randomSuffix(4);

  beforeAll(async () => {
    certs = testCertificates();
    otherCa = testCertificates().ca;
    const tls = { ca: certs.ca, cert: certs.serverCert, key: certs.serverKey };
    const clientTls = { cert: certs.clientCert, key: certs.clientKey };
    [mosquitto, nats, rabbit, env] = await Promise.all([
      PrivateMosquitto.start({ tls }),
      PrivateNats.start({ tls, clientTls }),
      PrivateRabbitMQ.start({ tls, timeoutMs: 45_000 }),
      sinkStack(),
    ]);
    natsSub = await natsConnect({ servers: `127.0.0.1:${nats.port}`, tls: { ca: certs.ca, ...clientTls } });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(listeners.map((l) => l.close()));
    await natsSub?.close();
    await Promise.all([mosquitto?.destroy(), nats?.destroy(), rabbit?.destroy()]);
    await env?.stack.stop();
  });

  /**
   * Three sinks of chat.created to `url` (`config`): the right CA and client certificate, no client
   * certificate, a CA of another authority. One event: it reaches `got` through the first; the log of
   * each other shows its TLS failure. The sinks are deleted after.
   */
  const threeSinks = async (transport: string, url: string, config: Record<string, unknown>, got: Listener) => {
    const create = async (credentials: Record<string, string>) => {
      const res = await env.api.post('/event-sinks', { transport, url, config, events: 'chat.created', credentials });
      expect(res.status).toBe(201);
      expect(res.body[0]).toMatchObject({ has_credentials: true });
      answers.push(JSON.stringify(res.body), JSON.stringify((await env.api.get(`/event-sinks/${res.body[0].id}`)).body));
      return res.body[0].id as string;
    };
    const good = await create({ tlsCa: certs.ca, tlsCert: certs.clientCert, tlsKey: certs.clientKey });
    const noCert = await create({ tlsCa: certs.ca });
    const wrongCa = await create({ tlsCa: otherCa, tlsCert: certs.clientCert, tlsKey: certs.clientKey });
    const before = await emittedIds(env.stack, env.orgId, 'chat.created');
    await emit(env.stack, env.orgId, 1, { type: 'chat.created' });
    const [eventId] = await emittedSince(env.stack, env.orgId, 'chat.created', before);
    await until(
      async () => got.arrivals.some((a) => a.event_id === eventId),
      (ok) => ok,
      30_000,
      `the event at the ${transport} subscriber`,
    );
    const delivered = await until(
      async () =>
        (await env.api.get(`/event-sinks/${good}/deliveries`)).body.attempts.find((a: { event_id: string }) => a.event_id === eventId),
      (a) => a !== undefined,
      15_000,
      'the delivery in the log',
    );
    expect(delivered).toMatchObject({ success: true, error: null });
    const refused = await failedAttempt(env.api, noCert);
    expect(refused).toMatchObject({ success: false, status_code: null, event_id: eventId });
    expect(refused.error).toMatch(new RegExp(`^${transport}: `));
    expect(refused.error).toMatch(REFUSED);
    const untrusted = await failedAttempt(env.api, wrongCa);
    expect(untrusted.error).toMatch(new RegExp(`^${transport}: .*${UNTRUSTED.source}`));
    answers.push(JSON.stringify((await env.api.get('/event-sinks')).body));
    for (const id of [good, noCert, wrongCa]) expect((await env.api.delete(`/event-sinks/${id}`)).status).toBe(204);
  };

  it('MQTT over TLS (mqtts://, Mosquitto require_certificate)', async () => {
    const topicPrefix = `mapi-tls-${suffix}`;
    const got = await listenMqtt(mosquitto.url, `${topicPrefix}/#`, `${topicPrefix}-sub`, {
      tls: { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey },
    });
    listeners.push(got);
    await threeSinks('mqtt', mosquitto.url, { topicPrefix, protocolVersion: 5 }, got);
  });

  it('NATS over TLS (tls://, nats-server --tlsverify)', async () => {
    const subjectPrefix = `mapi.tls${suffix}`;
    const got = listenNats(natsSub, `${subjectPrefix}.>`);
    listeners.push(got);
    await threeSinks('nats', nats.url, { subjectPrefix }, got);
  });

  it('AMQP over TLS (amqps://, RabbitMQ verify_peer and fail_if_no_peer_cert)', async () => {
    const exchange = `mapi-tls-${suffix}`;
    // the consumer uses the node's plain listener; the sinks its amqps one
    const got = await listenAmqp(rabbit.url, exchange);
    listeners.push(got);
    await threeSinks('amqp', rabbit.tlsUrl, { exchange }, got);
  });

  it('never answers or logs the PEMs (keys, certificates, CAs)', async () => {
    expect(answers.length).toBeGreaterThan(0);
    const lines = [...env.stack.gateway.lines, ...env.dispatcher.lines].join('\n');
    const pemBody = (pem: string) => pem.split('\n')[1];
    for (const pem of [certs.clientKey, certs.clientCert, certs.ca, otherCa]) {
      for (const text of [...answers, lines]) expect(text).not.toContain(pemBody(pem));
    }
    for (const text of [...answers, lines]) expect(text).not.toMatch(/BEGIN (EC |)PRIVATE KEY|BEGIN CERTIFICATE/);
  });
});
