import { trace } from '@opentelemetry/api';
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Paths never written to logs; the tests check that a bearer token does not appear. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'token',
  '*.token',
  'password',
  '*.password',
  'secret',
  '*.secret',
];

/**
 * JSON logs with the active trace and span ids on every line. Written to stdout asynchronously: a
 * line is handed to the kernel at once when no write is under way, and lines logged meanwhile go out
 * together in the next write — under load one write(2) for many lines instead of one per line (a
 * per-request line each in the gateway and the service was ~4 % of a small request's CPU,
 * docs/benchmarks.md). pino flushes what is buffered when the process exits (process.exit, a crash);
 * only SIGKILL can lose the last lines.
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}
