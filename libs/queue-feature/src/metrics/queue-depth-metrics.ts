import { meter } from '@mapi/platform';
import type { QueueDepth } from './queue-depth-gauge';

/**
 * `mapi.queue.jobs` (GET /metrics): the send queue's jobs across every phone by state (waiting,
 * delayed, active), read from BullMQ's keys when scraped, through the same cached count the KEDA
 * endpoint uses. Not per phone: phone ids are unbounded in number (per-phone depth is issue 20's
 * open part). Every queue replica reports the same figure: take the max.
 */
export function registerQueueDepthMetrics(depth: { read(): Promise<QueueDepth> }): () => void {
  const gauge = meter().createObservableGauge('mapi.queue.jobs', { description: 'Send-queue jobs across every phone, by state', unit: '{job}' });
  const observe = async (result: { observe(value: number, attributes: { state: string }): void }) => {
    const d = await depth.read();
    for (const state of ['waiting', 'delayed', 'active'] as const) result.observe(d[state], { state });
  };
  gauge.addCallback(observe);
  return () => gauge.removeCallback(observe);
}
