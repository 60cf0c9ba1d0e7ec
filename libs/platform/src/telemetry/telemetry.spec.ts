import { ROOT_CONTEXT, TraceFlags, metrics, trace } from '@opentelemetry/api';
import { startTelemetry, stopTelemetry } from './telemetry';

describe('startTelemetry without an exporter (OTEL_EXPORTER_OTLP_ENDPOINT unset)', () => {
  const saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  beforeAll(() => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    startTelemetry('telemetry-spec');
  });
  afterAll(async () => {
    await stopTelemetry();
    if (saved !== undefined) process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
  });

  it('records no new trace, yet gives it a real trace id for logs and propagation', () => {
    const span = trace.getTracer('spec').startSpan('request');
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext().traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
    span.end();
  });

  it('still follows a caller whose trace is sampled', () => {
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED, isRemote: true });
    const span = trace.getTracer('spec').startSpan('request', {}, parent);
    expect(span.isRecording()).toBe(true);
    expect(span.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    span.end();
  });

  it('sets up no metric reader (nothing is exported to a collector that is not there)', () => {
    const counter = metrics.getMeter('spec').createCounter('c');
    expect(counter.constructor.name).toMatch(/^Noop/);
  });
});
