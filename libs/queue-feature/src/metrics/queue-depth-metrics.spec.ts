import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type GaugeMetricData } from '@opentelemetry/sdk-metrics';
import type { QueueDepth } from './queue-depth-gauge';
import { registerQueueDepthMetrics } from './queue-depth-metrics';

class TestReader extends MetricReader {
  protected onForceFlush = () => Promise.resolve();
  protected onShutdown = () => Promise.resolve();
}

describe('registerQueueDepthMetrics', () => {
  const reader = new TestReader();
  beforeAll(() => metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] })));
  afterAll(() => metrics.disable());

  /** name → "label=value,…" → value, of one collection. */
  const collect = async () => {
    const { resourceMetrics } = await reader.collect();
    const out: Record<string, Record<string, number>> = {};
    for (const m of resourceMetrics.scopeMetrics.flatMap((s) => s.metrics) as GaugeMetricData[]) {
      out[m.descriptor.name] = Object.fromEntries(
        m.dataPoints.map((p) => [
          Object.entries(p.attributes)
            .map(([k, v]) => `${k}=${v}`)
            .join(','),
          p.value,
        ]),
      );
    }
    return out;
  };

  it("reports the depth by state, per phone, the next due job's age and the phones waiting, reading afresh each time", async () => {
    const now = Date.now();
    let depth: QueueDepth = {
      waiting: 2,
      delayed: 1,
      active: 3,
      phones: 3,
      phones_waiting: 1,
      measured_at: now,
      by_phone: [
        { phone_id: 'p1', waiting: 2, delayed: 0, active: 1, oldest_due_at: now - 1_500 },
        { phone_id: 'p2', waiting: 0, delayed: 1, active: 2 },
      ],
    };
    const stop = registerQueueDepthMetrics({ read: async () => depth });
    let m = await collect();
    expect(m['mapi.queue.jobs']).toEqual({ 'state=waiting': 2, 'state=delayed': 1, 'state=active': 3 });
    expect(m['mapi.queue.phones.waiting']).toEqual({ '': 1 });
    expect(m['mapi.queue.phone.jobs']).toEqual({
      'phone_id=p1,state=waiting': 2,
      'phone_id=p1,state=delayed': 0,
      'phone_id=p1,state=active': 1,
      'phone_id=p2,state=waiting': 0,
      'phone_id=p2,state=delayed': 1,
      'phone_id=p2,state=active': 2,
    });
    expect(m['mapi.queue.phone.oldest_due.age']).toEqual({ 'phone_id=p1': 1.5 });

    // p1's queue drained: it reads 0, not its last depth (the SDK would go on exporting that).
    depth = { ...depth, waiting: 0, active: 2, phones_waiting: 0, by_phone: [depth.by_phone[1]] };
    m = await collect();
    expect(m['mapi.queue.jobs']).toEqual({ 'state=waiting': 0, 'state=delayed': 1, 'state=active': 2 });
    expect(m['mapi.queue.phone.jobs']).toMatchObject({
      'phone_id=p1,state=waiting': 0,
      'phone_id=p1,state=active': 0,
      'phone_id=p2,state=delayed': 1,
    });
    expect(m['mapi.queue.phone.oldest_due.age']).toEqual({ 'phone_id=p1': 0 });
    stop();
  });
});
