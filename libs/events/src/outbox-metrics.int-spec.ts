import { randomUUID } from 'node:crypto';
import { metrics } from '@opentelemetry/api';
import {
  MeterProvider,
  MetricReader,
  type GaugeMetricData,
  type HistogramMetricData,
  type SumMetricData,
} from '@opentelemetry/sdk-metrics';
import { randomSuffix, stubEvents, testEnv, useTestDatabase } from '@mapi/testing';
import { connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { ensureStreams, streamNames } from './jetstream';
import { OutboxMetrics } from './outbox-metrics';
import { OutboxRelay, writeEvents } from './outbox';

class TestReader extends MetricReader {
  protected onForceFlush = () => Promise.resolve();
  protected onShutdown = () => Promise.resolve();
}

const t = useTestDatabase('outbox_metrics');
const reader = new TestReader();
const namespace = `outboxm-${randomSuffix()}`;
let nc: NatsConnection;

beforeAll(async () => {
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  nc = await connect({ servers: testEnv.natsUrl() });
  await ensureStreams(nc, namespace);
});
afterAll(async () => {
  metrics.disable();
  const jsm = await nc.jetstreamManager();
  for (const name of Object.values(streamNames(namespace))) await jsm.streams.delete(name).catch(() => undefined);
  await nc.close();
});

const collect = async () => {
  const { resourceMetrics } = await reader.collect();
  return new Map(resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).map((m) => [m.descriptor.name, m]));
};
const backlog = async () => ((await collect()).get('mapi.outbox.backlog') as GaugeMetricData | undefined)?.dataPoints[0]?.value;

describe('outbox relay metrics (integration)', () => {
  it('reports the backlog when scraped, then events published by type and their commit → NATS lag', async () => {
    // the relay's own metrics register the backlog at start(); here rounds are driven by hand (relayOnce),
    // so nothing else publishes meanwhile, and the gauge comes from an OutboxMetrics of its own
    const gauge = new OutboxMetrics(t.prisma);
    gauge.start();
    const relay = new OutboxRelay(t.prisma, nc, namespace, pino({ level: 'silent' }));
    expect(await backlog()).toBe(0);
    const org = randomUUID();
    await writeEvents(
      t.prisma,
      stubEvents([
        { type: 'message.created', org_id: org, data: { n: 1 } },
        { type: 'message.created', org_id: org, data: { n: 2 } },
        { type: 'chat.created', org_id: org, data: { n: 3 } },
      ]),
    );
    expect(await backlog()).toBe(3);
    expect(await relay.relayOnce()).toBe(3);
    const got = await collect();
    expect((got.get('mapi.outbox.backlog') as GaugeMetricData).dataPoints[0].value).toBe(0);
    const published = got.get('mapi.outbox.events.published') as SumMetricData;
    expect(Object.fromEntries(published.dataPoints.map((p) => [p.attributes.event_type, p.value]))).toEqual({
      'message.created': 2,
      'chat.created': 1,
    });
    const lag = (got.get('mapi.outbox.relay.lag') as HistogramMetricData).dataPoints[0].value;
    expect(lag.count).toBe(3);
    expect(lag.max).toBeLessThan(10);
    gauge.stop();
  });
});
