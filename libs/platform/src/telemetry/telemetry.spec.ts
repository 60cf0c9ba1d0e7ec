import { ROOT_CONTEXT, TraceFlags, metrics, trace } from '@opentelemetry/api';
import type { AddressInfo } from 'node:net';
import { startHealthServer } from '../health/health';
import { METER_NAME } from './metrics';
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
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    const span = trace.getTracer('spec').startSpan('request', {}, parent);
    expect(span.isRecording()).toBe(true);
    expect(span.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    span.end();
  });

  it("collects metrics for GET /metrics only: a pull reader, the libraries' own metrics dropped", async () => {
    metrics.getMeter(METER_NAME).createCounter('spec.things', { unit: '{thing}' }).add(2, { kind: 'a' });
    metrics.getMeter('@opentelemetry/instrumentation-pg').createCounter('db.client.spec').add(1);
    const server = await startHealthServer({ host: '127.0.0.1', port: 0, indicators: [] });
    try {
      const text = await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)).text();
      expect(text).toMatch(/^spec_things(_total)?\{kind="a"\} 2$/m);
      expect(text).not.toContain('db_client_spec');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
