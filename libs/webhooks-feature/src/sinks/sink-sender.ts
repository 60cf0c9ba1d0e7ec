import { createHash } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import type { SendResult } from '@mapi/platform';
import type { Logger } from 'pino';
import { connectAmqp } from './amqp-transport';
import { connectKafka } from './kafka-transport';
import { connectMqtt } from './mqtt-transport';
import { connectNats } from './nats-transport';
import { credentialsAad, type SinkSecrets } from './sink-secrets';
import type { ConnectSink, SinkConnection, SinkTarget } from './sink-transport';
import { explainTlsError } from './tls-error';

/** A send's answer; `delivered` is a broker's ack (no HTTP status to judge by). */
export type DeliveryAnswer = SendResult & { delivered?: boolean };

export interface HttpSend {
  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult>;
  readonly lookup: LookupFunction;
  close(): void | Promise<void>;
}

export const SINK_TRANSPORT_CONNECTS: Record<string, ConnectSink> = {
  amqp: connectAmqp,
  mqtt: connectMqtt,
  nats: connectNats,
  kafka: connectKafka,
};

/** Connections unused for this long are closed. */
const IDLE_MS = 5 * 60_000;

/**
 * The worker's Sender (decision 0087): a delivery of an `http` subscription is the signed POST; one of an
 * event sink goes to its broker over a connection kept per sink (organization, URL, config and sealed
 * credentials), opened to the address the webhook address policy passed. Every failure is an answer
 * (the delivery log shows the broker's reason, the retry policy applies), never a throw.
 */
export class SinkSender {
  private readonly pool = new Map<string, { conn: Promise<SinkConnection>; usedAt: number }>();
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly http: HttpSend,
    private readonly secrets: SinkSecrets,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
    private readonly connects: Record<string, ConnectSink> = SINK_TRANSPORT_CONNECTS,
  ) {
    this.sweep = setInterval(() => this.closeIdle(Date.now() - IDLE_MS), 60_000);
    this.sweep.unref();
  }

  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    return this.http.send(url, body, headers);
  }

  async sendToSink(url: string, body: string, headers: Record<string, string>, target: SinkTarget): Promise<DeliveryAnswer> {
    const started = performance.now();
    const answer = (error: string | null, timedOut = false): DeliveryAnswer => ({
      status: null,
      timedOut,
      latencyMs: Math.round(performance.now() - started),
      responseBody: null,
      retryAfter: null,
      error,
      delivered: error === null,
    });
    const key = this.keyOf(url, target);
    const opening = this.connection(key, url, target);
    try {
      const conn = await this.withTimeout(opening, 'connecting');
      await this.withTimeout(conn.publish({ event: target.type, eventId: target.event_id, body, headers }), 'waiting for the ack');
      return answer(null);
    } catch (err) {
      this.drop(key, opening);
      const message = explainTlsError(typeof (err as Error)?.message === 'string' ? (err as Error).message : String(err));
      return answer(`${target.transport}: ${message}`.slice(0, 1000), err instanceof TimeoutError);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweep);
    this.closeIdle(Number.POSITIVE_INFINITY);
    await this.http.close();
  }

  private keyOf(url: string, t: SinkTarget): string {
    const h = createHash('sha256');
    for (const part of [t.org_id, t.transport, url, JSON.stringify(t.transport_config ?? {})]) h.update(part).update('\0');
    if (t.credentials) h.update(Buffer.from(t.credentials));
    return h.digest('hex');
  }

  private connection(key: string, url: string, t: SinkTarget): Promise<SinkConnection> {
    const pooled = this.pool.get(key);
    if (pooled) {
      pooled.usedAt = Date.now();
      return pooled.conn.then((c) => (c.closed ? this.open(key, url, t, pooled.conn) : c));
    }
    return this.open(key, url, t);
  }

  /** Opens (once for all the deliveries waiting) a connection, unless another replaced `stale` meanwhile. */
  private open(key: string, url: string, t: SinkTarget, stale?: Promise<SinkConnection>): Promise<SinkConnection> {
    const current = this.pool.get(key);
    if (current && current.conn !== stale) return current.conn;
    const connect = this.connects[t.transport];
    const conn = (async () => {
      if (!connect) throw new Error(`unknown transport ${t.transport}`);
      const target = new URL(url);
      const credentials = t.credentials ? this.openCredentials(t) : {};
      const address = await this.resolve(target.hostname.replace(/^\[|\]$/g, ''));
      return connect({
        url: target,
        address,
        lookup: this.http.lookup,
        config: t.transport_config ?? {},
        credentials,
        timeoutMs: this.timeoutMs,
        clientName: `mapi-${key.slice(0, 16)}`,
      });
    })();
    this.pool.set(key, { conn, usedAt: Date.now() });
    conn.catch(() => this.pool.get(key)?.conn === conn && this.pool.delete(key));
    return conn;
  }

  private openCredentials(t: SinkTarget) {
    if (!t.credentials) return {};
    try {
      return this.secrets.open(t.credentials, credentialsAad(t.org_id, t.integration_id));
    } catch (err) {
      const why = typeof (err as Error)?.message === 'string' ? (err as Error).message : String(err);
      throw new Error(
        /BAILEYS_AUTH_KEY/.test(why) ? why : 'the stored credentials do not open with BAILEYS_AUTH_KEY (was the key changed?)',
      );
    }
  }

  /** The broker's address, by the webhook address policy's lookup (every answer must be allowed). */
  private resolve(hostname: string): Promise<string> {
    return new Promise((resolve, reject) =>
      this.http.lookup(hostname, {}, (err, address) => (err ? reject(err) : resolve(String(address)))),
    );
  }

  /** Closes the pooled connection of `key` (only if it is still `which`, when given: not one opened since). */
  private drop(key: string, which?: Promise<SinkConnection>): void {
    const pooled = this.pool.get(key);
    if (!pooled) return;
    if (which && pooled.conn !== which) {
      which.then((c) => c.close()).catch(() => undefined);
      return;
    }
    this.pool.delete(key);
    pooled.conn.then((c) => c.close()).catch(() => undefined);
  }

  private closeIdle(before: number): void {
    for (const [key, pooled] of this.pool) {
      if (pooled.usedAt < before) this.drop(key);
    }
    if (before === Number.POSITIVE_INFINITY) this.logger.debug('event sink connections closed');
  }

  private withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError(`timed out after ${this.timeoutMs} ms ${what}`)), this.timeoutMs);
    });
    return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
  }
}

class TimeoutError extends Error {}
