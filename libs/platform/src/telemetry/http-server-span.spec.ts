import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace, type Span } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { nameServerSpan, startTelemetry, stopTelemetry, traceIncomingRequests } from './telemetry';

/** What the listener saw while it ran: the active span, and whether it was there again in a later tick. */
interface Seen {
  span?: Span;
  laterTraceId?: string;
}

describe("traceIncomingRequests (the api-gateway's server spans)", () => {
  const saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  let server: Server;
  let base: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    startTelemetry('http-server-span-spec', { incomingHttpSpans: false });
    server = createServer((req, res) => {
      const entry: Seen = { span: trace.getActiveSpan() };
      seen.push(entry);
      setImmediate(() => {
        entry.laterTraceId = trace.getActiveSpan()?.spanContext().traceId;
        nameServerSpan(req.method ?? 'GET', '/things/:id');
        res.statusCode = req.url === '/fail' ? 503 : 200;
        res.end('ok');
      });
    });
    traceIncomingRequests(server, { ignore: (url) => url.startsWith('/health') });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await stopTelemetry();
    if (saved !== undefined) process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
  });
  beforeEach(() => (seen.length = 0));

  it("gives a request without traceparent a new trace, not recorded, active across the handler's ticks", async () => {
    await fetch(`${base}/things/1`);
    const span = seen[0].span as Span;
    expect(span.spanContext().traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
    expect(span.isRecording()).toBe(false);
    expect(seen[0].laterTraceId).toBe(span.spanContext().traceId);
  });

  it("continues a caller's sampled trace: a recorded SERVER span named by its route, ended with the status", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await fetch(`${base}/things/2?x=1`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    const span = seen[0].span as unknown as ReadableSpan & Span;
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    await new Promise((r) => setTimeout(r, 50)); // the span ends on the response's close
    expect(span.ended).toBe(true);
    expect(span.name).toBe('GET /things/:id');
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.path': '/things/2',
      'http.route': '/things/:id',
      'http.response.status_code': 200,
    });
    expect(span.status.code).toBe(0);
  });

  it('marks a 5xx as an error', async () => {
    await fetch(`${base}/fail`, { headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4737-00f067aa0ba902b7-01' } });
    await new Promise((r) => setTimeout(r, 50));
    const span = seen[0].span as unknown as ReadableSpan;
    expect(span.attributes['http.response.status_code']).toBe(503);
    expect(span.status.code).toBe(2);
  });

  it('leaves ignored paths without a span', async () => {
    await fetch(`${base}/health/live`);
    expect(seen[0].span).toBeUndefined();
  });
});
