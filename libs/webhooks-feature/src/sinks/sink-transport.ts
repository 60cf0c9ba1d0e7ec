import { isIP, type LookupFunction } from 'node:net';
import type { SinkCredentials } from '@mapi/contracts';

/** What the delivery worker knows of a claimed delivery's sink (its subscription row's transport fields). */
export interface SinkTarget {
  transport: string;
  transport_config: Record<string, unknown>;
  /** Sealed (sink-secrets.ts); null: none. */
  credentials: Uint8Array | null;
  org_id: string;
  integration_id: string;
  /** The event name (routing key, topic or subject suffix). */
  type: string;
  event_id: string;
}

/** One message to a broker: the webhook body (the hosted envelope plus event_id) and the webhook headers. */
export interface SinkMessage {
  event: string;
  eventId: string;
  body: string;
  headers: Record<string, string>;
}

/** A broker connection, pooled per sink by the router; `publish` resolves on the broker's ack. */
export interface SinkConnection {
  publish(message: SinkMessage): Promise<void>;
  /** The broker or the network ended it: the router opens a new one for the next delivery. */
  readonly closed: boolean;
  close(): Promise<void>;
}

export interface ConnectOptions {
  url: URL;
  /** The broker's address, resolved and passed by the webhook address policy (SSRF): what is connected to. */
  address: string;
  /**
   * The webhook address policy's lookup, for a transport that learns further addresses from the broker
   * (Kafka's advertised brokers): each must pass it before it is connected to.
   */
  lookup?: LookupFunction;
  config: Record<string, unknown>;
  credentials: SinkCredentials;
  timeoutMs: number;
  /** Names the connection on the broker (its client id for MQTT). */
  clientName: string;
}

export type ConnectSink = (options: ConnectOptions) => Promise<SinkConnection>;

/** The port of the URL, else the transport's default (plain, TLS). */
export const portOf = (url: URL, plain: number, tls: number, isTls: boolean) => Number(url.port) || (isTls ? tls : plain);

/**
 * The TLS server name (SNI) of a sink's URL: its host name; none for an IP address, which SNI may not
 * carry (RFC 6066; Node warns, DEP0123). The certificate is verified against the address either way.
 * (amqplib sets the URL's host as the name whatever it is given: an AMQP sink to an IP still warns.)
 */
export const serverNameOf = (url: URL): { servername?: string } => {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? {} : { servername: host };
};

/** TLS settings from the credentials (PEM strings), for Node's tls.connect. */
export const tlsOf = (c: SinkCredentials) => ({
  ...(c.tlsCa ? { ca: c.tlsCa } : {}),
  ...(c.tlsCert ? { cert: c.tlsCert } : {}),
  ...(c.tlsKey ? { key: c.tlsKey } : {}),
});
