import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type GaugeMetricData } from '@opentelemetry/sdk-metrics';
import { registerQueueDepthMetrics } from './queue-depth-metrics';

class TestReader extends MetricReader {
  protected onForceFlush = () => Promise.resolve();
  protected onShutdown = () => Promise.resolve();
}

describe('registerQueueDepthMetrics', () => {
  const reader = new TestReader();
  beforeAll(() => metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] })));
  afterAll(() => metrics.disable());

  it('reports the depth by state when scraped, reading it afresh each time', async () => {
    let waiting = 2;
    const stop = registerQueueDepthMetrics({ read: async () => ({ waiting, delayed: 1, active: 3, phones: 2, phones_waiting: 1, measured_at: new Date().toISOString() }) });
    const jobs = async () => {
      const { resourceMetrics } = await reader.collect();
      const m = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((x) => x.descriptor.name === 'mapi.queue.jobs') as GaugeMetricData;
      return Object.fromEntries(m.dataPoints.map((p) => [p.attributes.state, p.value]));
    };
    expect(await jobs()).toEqual({ waiting: 2, delayed: 1, active: 3 });
    waiting = 7;
    expect(await jobs()).toEqual({ waiting: 7, delayed: 1, active: 3 });
    stop();
  });
});
