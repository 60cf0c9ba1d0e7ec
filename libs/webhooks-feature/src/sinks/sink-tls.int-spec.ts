import { randomUUID } from 'node:crypto';
import { AddressPolicy, HttpSender } from '@mapi/platform';
import { PrivateMosquitto, PrivateNats, PrivateRabbitMQ, testCertificates, type TestCertificates } from '@mapi/testing';
import pino from 'pino';
import { SinkSecrets, credentialsAad } from './sink-secrets';
import { SinkSender } from './sink-sender';
import type { SinkTarget } from './sink-transport';

/**
 * TLS with client certificates, per transport, against brokers the test starts (never the machine's):
 * a Mosquitto (require_certificate), a nats-server (--tlsverify) and a RabbitMQ amqps listener
 * (verify_peer, fail_if_no_peer_cert), each with a throwaway CA (openssl). The CA and a client
 * certificate from it deliver; no client certificate, one from another CA, or a CA that did not issue
 * the broker's certificate each fail at once as an answer saying so — never a hang or a throw.
 */
jest.setTimeout(90_000);

/** A refused client certificate: an alert at the handshake, or (nats-server, often) the connection dropped just after. */
const REFUSED =
  /the broker refused our client certificate at the TLS handshake \(.*alert .*\)|the server dropped the TLS connection, as nats-server does when it refuses the client certificate/;
const secrets = new SinkSecrets(Buffer.alloc(32, 4));
const orgId = randomUUID();
const integrationId = randomUUID();
const target = (transport: string, credentials: object, config: Record<string, unknown> = {}): SinkTarget => ({
  transport,
  transport_config: config,
  credentials: secrets.seal(credentials, credentialsAad(orgId, integrationId)),
  org_id: orgId,
  integration_id: integrationId,
  type: 'chat.created',
  event_id: randomUUID(),
});

describe('event sinks over TLS with client certificates', () => {
  let certs: TestCertificates;
  let otherCa: string;
  let brokers: Record<string, { url: string; stop: () => Promise<void> }> = {};
  const sender = new SinkSender(new HttpSender(new AddressPolicy(['127.0.0.1/32']), 3_000), secrets, 3_000, pino({ level: 'silent' }));

  beforeAll(async () => {
    certs = testCertificates();
    otherCa = testCertificates().ca;
    const tls = { ca: certs.ca, cert: certs.serverCert, key: certs.serverKey };
    const [mosquitto, nats, rabbit] = await Promise.all([
      PrivateMosquitto.start({ tls }),
      PrivateNats.start({ tls, clientTls: { cert: certs.clientCert, key: certs.clientKey } }),
      PrivateRabbitMQ.start({ tls }),
    ]);
    brokers = {
      mqtt: { url: mosquitto.url, stop: () => mosquitto.destroy() },
      nats: { url: nats.url, stop: () => nats.destroy() },
      amqp: { url: rabbit.tlsUrl, stop: () => rabbit.destroy() },
    };
  }, 90_000);

  afterAll(async () => {
    await sender.close();
    await Promise.all(Object.values(brokers).map((b) => b.stop()));
  });

  const send = (transport: string, credentials: object) =>
    sender.sendToSink(brokers[transport].url, '{"event":"chat.created"}', {}, target(transport, credentials));

  it.each(['mqtt', 'nats', 'amqp'])('%s: delivers with the CA and a client certificate it issued', async (transport) => {
    expect(await send(transport, { tlsCa: certs.ca, tlsCert: certs.clientCert, tlsKey: certs.clientKey })).toMatchObject({
      delivered: true,
      error: null,
    });
  });

  it.each(['mqtt', 'nats', 'amqp'])('%s: no client certificate, or one of another CA: refused, said so', async (transport) => {
    for (const credentials of [{ tlsCa: certs.ca }, { tlsCa: certs.ca, tlsCert: certs.rogueCert, tlsKey: certs.rogueKey }]) {
      const res = await send(transport, credentials);
      expect(res).toMatchObject({ delivered: false, timedOut: false, status: null });
      expect(res.error).toMatch(new RegExp(`^${transport}: `));
      expect(res.error).toMatch(REFUSED);
    }
  });

  it.each(['mqtt', 'nats', 'amqp'])("%s: a CA that did not issue the broker's certificate: not trusted, said so", async (transport) => {
    for (const credentials of [
      { tlsCa: otherCa, tlsCert: certs.clientCert, tlsKey: certs.clientKey },
      { tlsCert: certs.clientCert, tlsKey: certs.clientKey },
    ]) {
      const res = await send(transport, credentials);
      expect(res).toMatchObject({ delivered: false, timedOut: false });
      expect(res.error).toMatch(
        new RegExp(
          `^${transport}: (self-signed certificate in certificate chain|unable to verify the first certificate) \\(TLS: the broker's certificate is not trusted: give the CA that issued it as tlsCa\\)$`,
        ),
      );
    }
  });
});
