import { randomUUID } from 'node:crypto';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import {
  ErrorCode,
  Errors,
  HttpReply,
  METRICS,
  ReadyJson,
  RPC_HTTP_STATUS_HEADER,
  ServiceError,
  issuesToFields,
  metricOptions,
  type RpcContract,
} from '@mapi/contracts';
import { createInbox, headers as natsHeaders, type Msg, type NatsConnection, type Subscription } from 'nats';
import { z } from 'zod';
import type { Logger } from 'pino';
import { namespaced } from './connection';
import type { BoundRpcHandler } from './rpc-handlers';
import { RPC_STATUS_CONTINUE, RpcHeader, joinChunks, replyChunkPayload, splitIntoChunks } from './rpc-codec';
import { extractTraceContext } from './trace-headers';
import { REPLY_COMPRESSION_MIN_BYTES, encodeReply, replyEncodingOf, type ReplyEncoding } from './reply-encoding';
import { DURATION_BUCKETS_S, meter } from '../telemetry/metrics';
import { UNAVAILABLE_MESSAGES, unavailableDependency } from '../errors/dependency-unavailable';
import { outageLog } from '../logging/outage-log';

export interface NatsRpcServerOptions {
  nc: NatsConnection;
  namespace: string;
  /** What this service answers: its handler table, bound to the service's parts (bindHandlers). */
  handlers: readonly BoundRpcHandler[];
  logger: Logger;
  /** Check replies against the contract too (on in tests, off in production for speed). */
  validateReplies?: boolean;
  /** Largest chunked request accepted (bytes of JSON); larger → 413 before any chunk is taken. Default 64 MiB. */
  maxRequestBytes?: number;
  /** How long the rest of a chunked request may take to arrive once asked for. Default 30 s. */
  chunkTimeoutMs?: number;
}

const MiB = 1024 * 1024;

/** The JSON bytes of a use case's answer: a ReadyJson's as they are (no stringify), else JSON.stringify of the body. */
function replyJson(reply: unknown): Buffer {
  if (reply instanceof ReadyJson) {
    const json: string | Uint8Array = reply.json;
    return typeof json === 'string' ? Buffer.from(json) : Buffer.from(json.buffer, json.byteOffset, json.byteLength);
  }
  return Buffer.from(JSON.stringify(reply instanceof HttpReply ? (reply.body ?? null) : reply));
}

/** A ReadyJson's value for the contract check (validateReplies); JSON that does not parse breaks the contract too. */
function readyValue(reply: ReadyJson, contract: RpcContract): unknown {
  try {
    return reply.parse();
  } catch (error) {
    throw new Error(`Reply of ${contract.subject} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * The services' RPC server: subscribes each handler's subject in the service's queue group
 * (replicas share the load), validates what it receives against the contract, runs the use case in
 * the caller's trace, and replies in chunks when the answer exceeds the server's max payload.
 */
export class NatsRpcServer {
  private readonly subs: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly tracer = trace.getTracer('mapi-rpc');
  /** rpc.server.call.duration (OpenTelemetry RPC conventions): by subject and the answer's HTTP status. */
  private readonly duration = meter().createHistogram(METRICS.rpcServerCallDuration.name, {
    ...metricOptions(METRICS.rpcServerCallDuration),
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
  });

  constructor(private readonly options: NatsRpcServerOptions) {}

  /** Subscribes every handler's subject; resolves once the server has them (requests sent after it are answered). */
  async listen(): Promise<void> {
    for (const handler of this.options.handlers) {
      const subject = namespaced(this.options.namespace, handler.contract.subject);
      this.subs.push(
        this.options.nc.subscribe(subject, {
          queue: `${this.options.namespace}.${handler.contract.service}`,
          callback: (err, msg) => {
            if (err) return this.options.logger.error({ err }, 'subscription error');
            const work = this.receive(msg)
              .then((data) => (data ? this.handle(handler, msg, data) : undefined))
              .finally(() => this.inFlight.delete(work));
            this.inFlight.add(work);
          },
        }),
      );
    }
    await this.options.nc.flush();
  }

  /**
   * The request's bytes: the message itself, or for a chunked request (rpc-codec.ts) chunk 0 plus the
   * rest, asked for on a private subject of this replica. null when the request failed to arrive
   * whole (already answered with an error).
   */
  private async receive(msg: Msg): Promise<Uint8Array | null> {
    const total = Number(msg.headers?.get(RpcHeader.chunks) || 1);
    if (total === 1) return msg.data;
    const maxPayload = this.options.nc.info?.max_payload ?? MiB;
    const maxBytes = this.options.maxRequestBytes ?? 64 * MiB;
    if (!Number.isInteger(total) || total < 1 || !msg.reply) {
      this.reply(
        msg,
        'error',
        Buffer.from(JSON.stringify(Errors.validation({ body: { message: 'malformed chunked request' } }).toEnvelope())),
      );
      return null;
    }
    if ((total - 1) * maxPayload > maxBytes) {
      const error = new ServiceError(ErrorCode.PAYLOAD_TOO_LARGE_ERROR, 413, `Request is too large: at most ${maxBytes} bytes`);
      this.reply(msg, 'error', Buffer.from(JSON.stringify(error.toEnvelope())));
      return null;
    }
    const parts: Uint8Array[] = new Array(total);
    parts[0] = Buffer.from(msg.data); // copies: the chunks are held until the last one arrives
    let received = 1;
    const subject = createInbox();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        sub.unsubscribe();
        this.reply(
          msg,
          'error',
          Buffer.from(JSON.stringify(Errors.timeout('The rest of the request did not arrive in time').toEnvelope())),
        );
        resolve(null);
      }, this.options.chunkTimeoutMs ?? 30_000);
      const sub = this.options.nc.subscribe(subject, {
        callback: (err, part) => {
          const index = Number(part?.headers?.get(RpcHeader.chunk));
          if (err || !Number.isInteger(index) || index < 1 || index >= total) return;
          if (parts[index] === undefined) received++;
          parts[index] = Buffer.from(part.data);
          if (received < total) return;
          clearTimeout(timer);
          sub.unsubscribe();
          resolve(joinChunks(parts));
        },
      });
      const h = natsHeaders();
      h.set(RpcHeader.status, RPC_STATUS_CONTINUE);
      h.set(RpcHeader.upload, subject);
      this.options.nc.publish(msg.reply!, new Uint8Array(0), { headers: h });
    });
  }

  private async handle(handler: BoundRpcHandler, msg: Msg, data: Uint8Array): Promise<void> {
    const { contract } = handler;
    const parent = extractTraceContext(msg.headers);
    const requestId = msg.headers?.get(RpcHeader.requestId) || undefined;
    await context.with(parent, () =>
      this.tracer.startActiveSpan(`rpc ${contract.subject}`, { kind: SpanKind.SERVER }, async (span) => {
        const started = performance.now();
        let status = 200;
        try {
          const reply = await this.invoke(handler, data);
          const httpStatus = reply instanceof HttpReply ? reply.status : undefined;
          if (httpStatus !== undefined) status = httpStatus;
          const json = replyJson(reply);
          const encoding =
            json.length >= REPLY_COMPRESSION_MIN_BYTES ? replyEncodingOf(msg.headers?.get(RpcHeader.acceptEncoding)) : undefined;
          // a large answer is compressed here, before the hop, so neither NATS nor the gateway carries the plain bytes
          this.reply(msg, 'ok', encoding ? await encodeReply(json, encoding) : json, httpStatus, encoding);
        } catch (error) {
          const serviceError = this.toServiceError(error, contract, requestId);
          status = serviceError.status;
          span.setStatus({ code: SpanStatusCode.ERROR, message: serviceError.message });
          this.reply(msg, 'error', Buffer.from(JSON.stringify(serviceError.toEnvelope())));
        } finally {
          const ms = performance.now() - started;
          this.options.logger.info({ subject: contract.subject, status, ms: Math.round(ms), request_id: requestId }, 'rpc');
          this.duration.record(ms / 1000, { 'rpc.system': 'nats', 'rpc.method': contract.subject, 'http.response.status_code': status });
          span.end();
        }
      }),
    );
  }

  private async invoke({ contract, execute }: BoundRpcHandler, data: Uint8Array): Promise<unknown> {
    let raw: unknown;
    try {
      raw = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8'));
    } catch {
      throw Errors.validation({ body: { message: 'Request is not valid JSON' } }, 'Malformed request');
    }
    const parsed = contract.request.safeParse(raw);
    if (!parsed.success) throw this.validationError(parsed.error, raw);
    const result = await execute(parsed.data);
    const isSuccessBody = !(result instanceof HttpReply) || (result.status >= 200 && result.status < 300);
    if (this.options.validateReplies && isSuccessBody) {
      const check = contract.response.safeParse(
        result instanceof HttpReply ? result.body : result instanceof ReadyJson ? readyValue(result, contract) : result,
      );
      if (!check.success) throw new Error(`Reply of ${contract.subject} breaks its contract: ${check.error.message}`);
    }
    return result;
  }

  /** Maps issues on `{ctx, params, query, body}` to the envelope's field keys. */
  private validationError(error: z.ZodError, raw: unknown): ServiceError {
    const fields = {};
    for (const location of ['params', 'query', 'body', 'ctx'] as const) {
      const issues = error.issues.filter((i) => i.path[0] === location).map((i) => ({ ...i, path: i.path.slice(1) }));
      if (!issues.length) continue;
      const part = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[location] : undefined;
      Object.assign(fields, issuesToFields(location === 'body' ? 'body' : location === 'ctx' ? 'headers' : location, issues, part));
    }
    return Errors.validation(fields);
  }

  private toServiceError(error: unknown, contract: RpcContract, requestId?: string): ServiceError {
    if (error instanceof ServiceError) return error;
    const errorId = randomUUID();
    const away = unavailableDependency(error);
    if (away) {
      // Not a bug: the database (or Redis) cannot serve now. 503 (the gateway adds Retry-After), logged without the request.
      outageLog(this.options.logger).warn(`${away} unavailable`, { err: error, subject: contract.subject, request_id: requestId });
      return Errors.unavailable(UNAVAILABLE_MESSAGES[away]);
    }
    this.options.logger.error({ err: error, error_id: errorId, subject: contract.subject, request_id: requestId }, 'unhandled error');
    return Errors.unknown(errorId);
  }

  private reply(msg: Msg, status: 'ok' | 'error', body: Uint8Array, httpStatus?: number, encoding?: ReplyEncoding): void {
    if (!msg.reply) return;
    const chunks = splitIntoChunks(body, replyChunkPayload(body.length, this.options.nc.info?.max_payload ?? MiB));
    chunks.forEach((chunk, index) => {
      const h = natsHeaders();
      h.set(RpcHeader.status, status);
      h.set(RpcHeader.chunk, String(index));
      h.set(RpcHeader.chunks, String(chunks.length));
      if (httpStatus !== undefined) h.set(RPC_HTTP_STATUS_HEADER, String(httpStatus));
      if (encoding) h.set(RpcHeader.contentEncoding, encoding);
      this.options.nc.publish(msg.reply!, chunk, { headers: h });
    });
  }

  /**
   * Stops taking requests, then waits for the ones under way (graceful shutdown). Drain, not
   * unsubscribe: NATS may have routed a request here before it saw the UNSUB; drain takes those
   * too (UNSUB, a round trip, then every message that arrived before it) where unsubscribe would
   * drop them unanswered, leaving their callers to time out (504) instead of being served.
   */
  async close(): Promise<void> {
    await Promise.allSettled(this.subs.map((sub) => sub.drain()));
    await Promise.allSettled([...this.inFlight]);
    await this.options.nc.flush().catch(() => undefined);
  }
}
