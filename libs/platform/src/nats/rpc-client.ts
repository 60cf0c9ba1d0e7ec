import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { ServiceError, Errors, ErrorEnvelopeSchema, RPC_HTTP_STATUS_HEADER, type RpcContract, type RpcResponse } from '@mapi/contracts';
import type { z } from 'zod';
import { createInbox, headers as natsHeaders, type Msg, type NatsConnection, type Status, type Subscription } from 'nats';
import { namespaced } from './connection';
import { RPC_STATUS_CONTINUE, RpcHeader, joinChunks, splitIntoChunks } from './rpc-codec';
import { injectTraceContext } from './trace-headers';
import type { ReplyEncoding } from './reply-encoding';

/** A reply's JSON bytes, and the HTTP status the service chose (an HttpReply), if any. */
export interface RawReply {
  /** The bytes as one buffer (a chunked reply is joined on first read: a caller that can take `parts` avoids the copy). */
  readonly body: Buffer;
  /** The bytes as they arrived, in order: the NATS chunks of a chunked reply (views, not copies), else one part. */
  readonly parts: readonly Uint8Array[];
  /** Bytes in all (`body.length`, without joining). */
  readonly byteLength: number;
  readonly httpStatus?: number;
  /** Set when the service compressed the JSON (asked for by RpcCallOptions.acceptEncoding): `body` is in it. */
  readonly encoding?: ReplyEncoding;
}

/**
 * A reply as it arrived: joined into one buffer only when `body` is read. The gateway writes a large
 * page's parts to the socket as they are, so the copy of the whole page (Buffer.concat) and the GC of
 * that external memory are not made (docs/benchmarks.md, "GET messages: gateway vs raw driver").
 */
class ArrivedReply implements RawReply {
  private joined?: Buffer;
  readonly byteLength: number;

  constructor(
    readonly parts: readonly Uint8Array[],
    readonly httpStatus?: number,
    readonly encoding?: ReplyEncoding,
  ) {
    let length = 0;
    for (const part of parts) length += part.byteLength;
    this.byteLength = length;
  }

  get body(): Buffer {
    return (this.joined ??= joinChunks(this.parts as Uint8Array[]));
  }
}

interface Pending {
  httpStatus?: number;
  encoding?: ReplyEncoding;
  chunks: Uint8Array[];
  received: number;
  total: number;
  status: string;
  resolve: (reply: RawReply) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** A chunked request's chunks 1..N-1, sent once the receiving replica asks for them. */
  rest?: Uint8Array[];
  /** What to publish again while no instance answers (see NatsRpcClientOptions.unavailableRetryMs). */
  retry: { subject: string; first: Uint8Array; headers: ReturnType<typeof natsHeaders>; until: number; delayMs: number; waiting: boolean };
}

export interface NatsRpcClientOptions {
  /**
   * How long a call keeps retrying while no instance of the service subscribes (NATS "no
   * responders": the request reached nobody, so nothing can have been done and a retry is safe) —
   * a restarting single-replica service, a rollout. Bounded by the call's timeout; then 503.
   * 0 answers 503 at once.
   */
  unavailableRetryMs?: number;
}

/** Default of NatsRpcClientOptions.unavailableRetryMs (RPC_UNAVAILABLE_RETRY_MS). */
export const DEFAULT_UNAVAILABLE_RETRY_MS = 5_000;
const FIRST_RETRY_DELAY_MS = 25;
const MAX_RETRY_DELAY_MS = 400;

export interface RpcCallOptions {
  timeoutMs?: number;
  requestId?: string;
  /**
   * The caller can pass a large reply on in this encoding (the gateway, for a client that accepts it):
   * the service then compresses a reply of REPLY_COMPRESSION_MIN_BYTES or more before the hop, and
   * RawReply.encoding says so. Errors and smaller replies come back as plain JSON.
   */
  acceptEncoding?: ReplyEncoding;
}

/**
 * Request/reply over NATS with one muxed inbox subscription, chunked requests and replies (see
 * rpc-codec.ts), a timeout covering the whole exchange, and the trace context in the headers. A
 * service's ServiceError comes back as a ServiceError.
 */
export class NatsRpcClient {
  private readonly inbox = createInbox();
  private readonly pending = new Map<string, Pending>();
  private readonly sub: Subscription;
  private seq = 0;
  private readonly tracer = trace.getTracer('mapi-rpc');
  /** Between a disconnect from NATS and the reconnect: calls fail at once with 503 rather than wait out their timeout. */
  private disconnected = false;
  private readonly statuses: AsyncIterable<Status> & { stop?: () => void };

  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
    private readonly defaultTimeoutMs: number,
    private readonly options: NatsRpcClientOptions = {},
  ) {
    this.sub = nc.subscribe(`${this.inbox}.*`, { callback: (err, msg) => !err && this.onReply(msg) });
    this.statuses = nc.status();
    void this.watchConnection();
  }

  /**
   * A disconnect loses the replies of calls under way (the server does not keep them for us), so
   * those fail now with 503 — the request may or may not have been carried out, as with a timeout —
   * and new calls fail at once until the connection is back: never a wait to the timeout, or a 504.
   */
  private async watchConnection(): Promise<void> {
    for await (const s of this.statuses) {
      if (s.type === 'disconnect') {
        this.disconnected = true;
        for (const [token, p] of this.pending) this.settle(token, p, Errors.unavailable('The message bus went away during the call'));
      } else if (s.type === 'reconnect') this.disconnected = false;
    }
  }

  /** Calls and returns the raw JSON bytes of the reply, for passing through without re-parsing. */
  async callRaw(contract: RpcContract, payload: unknown, options: RpcCallOptions = {}): Promise<RawReply> {
    const subject = namespaced(this.namespace, contract.subject);
    return this.tracer.startActiveSpan(`rpc ${contract.subject}`, { kind: SpanKind.CLIENT }, async (span) => {
      try {
        return await this.send(subject, contract.subject, payload, options);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    });
  }

  /** Calls a contract with a request of its type; the answer is typed as its response (validated by the service in tests). */
  async call<C extends RpcContract>(
    contract: C,
    payload: z.input<C['request']>,
    options: Omit<RpcCallOptions, 'acceptEncoding'> = {},
  ): Promise<RpcResponse<C>> {
    return JSON.parse(
      (await this.callRaw(contract, payload, { ...options, acceptEncoding: undefined })).body.toString('utf8'),
    ) as RpcResponse<C>;
  }

  private send(subject: string, name: string, payload: unknown, options: RpcCallOptions): Promise<RawReply> {
    const token = (++this.seq).toString(36);
    const hdrs = natsHeaders();
    injectTraceContext(hdrs, context.active());
    if (options.requestId) hdrs.set(RpcHeader.requestId, options.requestId);
    if (options.acceptEncoding) hdrs.set(RpcHeader.acceptEncoding, options.acceptEncoding);
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    if (this.disconnected) return Promise.reject(Errors.unavailable('Message bus unavailable (reconnecting)'));
    return new Promise<RawReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        const waiting = this.pending.get(token)?.retry.waiting;
        this.pending.delete(token);
        // still waiting for an instance to appear: the request reached nobody, so it is a 503, not a 504
        reject(
          waiting
            ? Errors.unavailable('No instance of the service is available')
            : Errors.timeout(`The ${name.split('.')[0]} service did not answer within ${timeoutMs} ms`),
        );
      }, timeoutMs);
      const chunks = splitIntoChunks(Buffer.from(JSON.stringify(payload)), this.nc.info?.max_payload ?? 1024 * 1024);
      const rest = chunks.length > 1 ? chunks.slice(1) : undefined;
      if (rest) {
        hdrs.set(RpcHeader.chunk, '0');
        hdrs.set(RpcHeader.chunks, String(chunks.length));
      }
      const until = Date.now() + (this.options.unavailableRetryMs ?? DEFAULT_UNAVAILABLE_RETRY_MS);
      const retry = { subject, first: chunks[0], headers: hdrs, until, delayMs: FIRST_RETRY_DELAY_MS, waiting: false };
      this.pending.set(token, { chunks: [], received: 0, total: 1, status: 'ok', resolve, reject, timer, rest, retry });
      try {
        this.nc.publish(subject, chunks[0], { reply: `${this.inbox}.${token}`, headers: hdrs });
      } catch (error) {
        clearTimeout(timer);
        this.pending.delete(token);
        reject(Errors.unavailable(`Message bus unavailable: ${(error as Error).message}`));
      }
    });
  }

  private onReply(msg: Msg): void {
    const token = msg.subject.slice(this.inbox.length + 1);
    const p = this.pending.get(token);
    if (!p) return;
    if (msg.headers?.code === 503) return this.noResponders(token, p);
    if (msg.headers?.get(RpcHeader.status) === RPC_STATUS_CONTINUE) return this.sendRest(token, p, msg.headers.get(RpcHeader.upload));
    const index = Number(msg.headers?.get(RpcHeader.chunk) || 0);
    p.total = Number(msg.headers?.get(RpcHeader.chunks) || 1);
    p.status = msg.headers?.get(RpcHeader.status) || 'ok';
    const httpStatus = msg.headers?.get(RPC_HTTP_STATUS_HEADER);
    if (httpStatus) p.httpStatus = Number(httpStatus);
    const encoding = msg.headers?.get(RpcHeader.contentEncoding);
    if (encoding) p.encoding = encoding as ReplyEncoding;
    if (p.chunks[index] === undefined) p.received++;
    p.chunks[index] = msg.data;
    if (p.received < p.total) return;
    if (p.status === 'ok') return this.settle(token, p, undefined, p.chunks);
    const envelope = ErrorEnvelopeSchema.safeParse(JSON.parse(joinChunks(p.chunks).toString('utf8')));
    this.settle(token, p, envelope.success ? ServiceError.fromEnvelope(envelope.data) : Errors.unavailable('Malformed error reply'));
  }

  /** Nobody received the request: publish it again after a growing delay, until the retry budget is spent. */
  private noResponders(token: string, p: Pending): void {
    const r = p.retry;
    const left = r.until - Date.now();
    if (left <= 0) return this.settle(token, p, Errors.unavailable('No instance of the service is available'));
    const delayMs = Math.min(r.delayMs, left);
    r.waiting = true;
    setTimeout(() => {
      if (this.pending.get(token) !== p) return; // timed out or closed meanwhile
      r.waiting = false;
      try {
        this.nc.publish(r.subject, r.first, { reply: `${this.inbox}.${token}`, headers: r.headers });
      } catch (error) {
        this.settle(token, p, Errors.unavailable(`Message bus unavailable: ${(error as Error).message}`));
      }
    }, delayMs).unref();
    r.delayMs = Math.min(r.delayMs * 2, MAX_RETRY_DELAY_MS);
  }

  /** The receiving replica asked for the rest of a chunked request: send chunks 1..N-1 to its subject. */
  private sendRest(token: string, p: Pending, target: string): void {
    const rest = p.rest;
    p.rest = undefined;
    if (!rest || !target) return this.settle(token, p, Errors.unavailable('Malformed continue reply'));
    try {
      rest.forEach((chunk, i) => {
        const h = natsHeaders();
        h.set(RpcHeader.chunk, String(i + 1));
        this.nc.publish(target, chunk, { headers: h });
      });
    } catch (error) {
      this.settle(token, p, Errors.unavailable(`Message bus unavailable: ${(error as Error).message}`));
    }
  }

  private settle(token: string, p: Pending, error?: Error, parts?: Uint8Array[]): void {
    clearTimeout(p.timer);
    this.pending.delete(token);
    if (error) p.reject(error);
    else p.resolve(new ArrivedReply(parts ?? [], p.httpStatus, p.encoding));
  }

  async close(): Promise<void> {
    this.statuses.stop?.();
    this.sub.unsubscribe();
    for (const [token, p] of this.pending) this.settle(token, p, Errors.unavailable('Client closed'));
  }
}
