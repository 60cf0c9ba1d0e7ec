import { metrics, type ObservableResult } from '@opentelemetry/api';
import { METER_NAME, METRICS, metricOptions } from '@mapi/contracts';

export type ConsumerState = 'starting' | 'up' | 'down';

/** What readiness and the gauge read of one running consumer. */
export interface ConsumerStatus {
  readonly name: string;
  readonly state: ConsumerState;
  /** Why it is down (the last failure), while it is. */
  readonly error?: string;
}

const running = new Set<{ status(): ConsumerStatus }>();
let gaugeCreated = false;

const observe = (result: ObservableResult) => {
  // One series per consumer name: 1 consuming, 0 down or starting. Two consumers of one name in a
  // process (tests) report the lower.
  const byName = new Map<string, number>();
  for (const c of running) {
    const { name, state } = c.status();
    byName.set(name, Math.min(byName.get(name) ?? 1, state === 'up' ? 1 : 0));
  }
  for (const [consumer, value] of byName) result.observe(value, { consumer });
};

/** Registers a started consumer for readiness (consumersIndicator) and the `mapi.stream.consumer.up` gauge. */
export function trackConsumer(consumer: { status(): ConsumerStatus }): () => void {
  if (!gaugeCreated) {
    // The project's meter by the catalogue's name (this data lib may not import libs/platform's meter()).
    metrics
      .getMeter(METER_NAME)
      .createObservableGauge(METRICS.streamConsumerUp.name, metricOptions(METRICS.streamConsumerUp))
      .addCallback(observe);
    gaugeCreated = true;
  }
  running.add(consumer);
  return () => running.delete(consumer);
}

/** The statuses of this process's running consumers. */
export function consumerStatuses(): ConsumerStatus[] {
  return [...running].map((c) => c.status());
}

/**
 * A readiness check (libs/platform's HealthIndicator shape): fails while any of this process's
 * stream consumers is not consuming (restarting after a failure, or not started yet), naming them.
 * Read at each check, so consumers started after the health server are covered too.
 */
export const consumersIndicator = () => ({
  name: 'consumers',
  check: async (): Promise<void> => {
    const notUp = consumerStatuses().filter((s) => s.state !== 'up');
    if (notUp.length) throw new Error(notUp.map((s) => `${s.name} ${s.state}${s.error ? `: ${s.error}` : ''}`).join('; '));
  },
});
