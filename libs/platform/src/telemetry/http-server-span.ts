import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Span } from '@opentelemetry/api';

type RequestListener = (this: Server, req: IncomingMessage, res: ServerResponse) => void;

export interface IncomingSpanOptions {
  /** Requests left without a span (and without an active trace), as the http instrumentation's ignore hook did. */
  ignore?: (url: string) => boolean;
}

const tracer = () => trace.getTracer('mapi-http-server');

/**
 * One SERVER span per incoming request of `server`, made here instead of by
 * @opentelemetry/instrumentation-http (startTelemetry's `incomingHttpSpans: false`): the caller's
 * traceparent is followed, the span is the active one while the server's listeners run (so the
 * NATS hop carries it and every log line names it), and it ends when the response closes, marked
 * as an error on a 5xx. What it leaves out: the ~20 attributes the instrumentation gathered from
 * every request whether the span was recorded or not, its binding of the request and response
 * emitters to the context, and its no-op metrics — work paid on every request, sampled or not
 * (docs/benchmarks.md, "Gateway fixed cost per request"). Attributes are set only on a recorded span (an
 * exporter is configured or the caller's trace is sampled).
 *
 * Wraps the `request` listeners present when called (Fastify's and socket.io's): call it once the
 * server has all of them.
 */
export function traceIncomingRequests(server: Server, options: IncomingSpanOptions = {}): void {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const ignore = options.ignore ?? (() => false);
  const dispatch = (self: Server, req: IncomingMessage, res: ServerResponse) => {
    for (const listener of listeners) listener.call(self, req, res);
  };
  server.on('request', function (this: Server, req: IncomingMessage, res: ServerResponse) {
    if (ignore(req.url ?? '')) return dispatch(this, req, res);
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const method = req.method ?? 'GET';
    const span = tracer().startSpan(method, { kind: SpanKind.SERVER }, parent);
    if (span.isRecording()) {
      span.setAttributes({
        'http.request.method': method,
        'url.path': (req.url ?? '/').split('?')[0],
        'url.scheme': 'http',
        'user_agent.original': req.headers['user-agent'] ?? '',
      });
    }
    res.once('close', () => endServerSpan(span, res));
    context.with(trace.setSpan(parent, span), dispatch, undefined, this, req, res);
  });
}

function endServerSpan(span: Span, res: ServerResponse): void {
  if (span.isRecording()) {
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    if (!res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR, message: 'response closed before it was sent' });
  }
  span.end();
}

/** Names the request's span after its route template (`GET /v1/chats/:chat_id/messages`), when it is recorded. */
export function nameServerSpan(method: string, route: string | undefined): void {
  if (!route) return;
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return;
  span.setAttribute('http.route', route);
  span.updateName(`${method} ${route}`);
}
