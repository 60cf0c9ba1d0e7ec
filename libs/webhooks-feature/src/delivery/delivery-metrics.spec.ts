import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type HistogramMetricData, type SumMetricData } from '@opentelemetry/sdk-metrics';
import { DeliveryMetrics } from './delivery-metrics';

class TestReader extends MetricReader {
  protected onForceFlush = () => Promise.resolve();
  protected onShutdown = () => Promise.resolve();
}

describe('DeliveryMetrics', () => {
  const reader = new TestReader();
  beforeAll(() => metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] })));
  afterAll(() => metrics.disable());

  const collect = async () => {
    const { resourceMetrics } = await reader.collect();
    return new Map(resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).map((m) => [m.descriptor.name, m]));
  };

  it('counts attempts by outcome, the attempt a delivery settled on, and commit → delivery latency for successes only', async () => {
    const m = new DeliveryMetrics();
    const now = new Date('2026-11-25T10:00:02.500Z');
    m.record('retry', 1, new Date('2026-11-25T10:00:00Z'), now);
    m.record('succeeded', 2, new Date('2026-11-25T10:00:00Z'), now);
    m.record('failed', 6, new Date('2026-11-25T09:00:00Z'), now);
    m.record('cancelled', 1, undefined, now);
    const got = await collect();
    const attempts = got.get('mapi.webhook.delivery.attempts') as SumMetricData;
    expect(Object.fromEntries(attempts.dataPoints.map((p) => [p.attributes.outcome, p.value]))).toEqual({
      retry: 1,
      succeeded: 1,
      failed: 1,
      cancelled: 1,
    });
    const settled = got.get('mapi.webhook.delivery.settled_attempts') as HistogramMetricData;
    expect(Object.fromEntries(settled.dataPoints.map((p) => [p.attributes.outcome, p.value.sum]))).toEqual({ succeeded: 2, failed: 6 });
    const latency = got.get('mapi.webhook.delivery.latency') as HistogramMetricData;
    expect(latency.dataPoints).toHaveLength(1);
    expect(latency.dataPoints[0].value).toMatchObject({ count: 1, sum: 2.5 });
  });
});
