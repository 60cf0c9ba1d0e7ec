import { METRICS, metricOptions } from '@mapi/contracts';
import { GaugeSeries, meter } from '@mapi/platform';
import type { BatchObservableResult, Observable } from '@opentelemetry/api';
import type { QueueDepth } from './queue-depth-gauge';

const STATES = ['waiting', 'delayed', 'active'] as const;

/**
 * The send queue's depth on GET /metrics, read from BullMQ's keys when scraped (one cached count
 * for all four gauges):
 * - `mapi.queue.jobs` {state}: across every phone;
 * - `mapi.queue.phone.jobs` {phone_id, state} and `mapi.queue.phone.oldest_due.age` {phone_id}
 *   (seconds its next due job has been due): per phone, for the phones with jobs (due jobs for
 *   the age); a phone whose queue drained reads 0 from then on (GaugeSeries), so the series are
 *   bounded by the deployment's phones that had jobs since the replica started — never by
 *   messages or chats; no organization id (a phone belongs to one);
 * - `mapi.queue.phones.waiting`: phones with due jobs, what the KEDA trigger scales on.
 * Every queue replica reports the same figures: take the max, never the sum.
 */
export function registerQueueDepthMetrics(depth: { read(): Promise<QueueDepth> }): () => void {
  const m = meter();
  const jobs = m.createObservableGauge(METRICS.queueJobs.name, metricOptions(METRICS.queueJobs));
  const phoneJobs = m.createObservableGauge(METRICS.queuePhoneJobs.name, metricOptions(METRICS.queuePhoneJobs));
  const oldestAge = m.createObservableGauge(METRICS.queuePhoneOldestDueAge.name, metricOptions(METRICS.queuePhoneOldestDueAge));
  const phonesWaiting = m.createObservableGauge(METRICS.queuePhonesWaiting.name, metricOptions(METRICS.queuePhonesWaiting));
  const observables: Observable[] = [jobs, phoneJobs, oldestAge, phonesWaiting];
  const phoneJobsSeries = new GaugeSeries();
  const oldestAgeSeries = new GaugeSeries();
  const observe = async (result: BatchObservableResult) => {
    const d = await depth.read();
    for (const state of STATES) result.observe(jobs, d[state], { state });
    result.observe(phonesWaiting, d.phones_waiting);
    const perPhone = d.by_phone.flatMap((p) => STATES.map((state) => [p[state], { phone_id: p.phone_id, state }] as const));
    for (const [value, attributes] of phoneJobsSeries.withZeros(perPhone)) result.observe(phoneJobs, value, attributes);
    const ages = d.by_phone.flatMap((p) =>
      p.oldest_due_at === undefined ? [] : [[Math.max(0, (d.measured_at - p.oldest_due_at) / 1000), { phone_id: p.phone_id }] as const],
    );
    for (const [value, attributes] of oldestAgeSeries.withZeros(ages)) result.observe(oldestAge, value, attributes);
  };
  m.addBatchObservableCallback(observe, observables);
  return () => m.removeBatchObservableCallback(observe, observables);
}
