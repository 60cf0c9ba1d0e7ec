import { context, propagation, trace, TraceFlags } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { extractJobTrace, injectJobTrace } from './job-trace';

describe('trace context in job data', () => {
  beforeAll(() => propagation.setGlobalPropagator(new W3CTraceContextPropagator()));
  afterAll(() => propagation.disable());

  const spanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };

  it('writes the active span as a W3C traceparent and reads it back', () => {
    const ctx = trace.setSpanContext(context.active(), spanContext);
    const carrier = injectJobTrace(ctx);
    expect(carrier).toEqual({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
    const back = trace.getSpanContext(extractJobTrace(JSON.parse(JSON.stringify(carrier))));
    expect(back).toMatchObject({ traceId: spanContext.traceId, spanId: spanContext.spanId, isRemote: true });
  });

  it('carries nothing without an active span, and extracts no span from an empty or missing carrier', () => {
    expect(injectJobTrace(context.active())).toEqual({});
    expect(trace.getSpanContext(extractJobTrace({}))).toBeUndefined();
    expect(trace.getSpanContext(extractJobTrace(undefined))).toBeUndefined();
  });

  it('ignores a malformed traceparent', () => {
    expect(trace.getSpanContext(extractJobTrace({ traceparent: 'not-a-traceparent' }))).toBeUndefined();
  });
});
