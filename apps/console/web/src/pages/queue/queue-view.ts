import type { QueueJob, QueueStatus } from '../../api/types';

/** The job states a listing can be narrowed to (GET /v1/queue/jobs?status=). */
export const JOB_STATUSES = ['waiting', 'delayed', 'active', 'completed', 'failed'] as const;

/** The queue's counts in reading order: what is still to go first, then what went. */
export const queueCounts = (s: QueueStatus): [string, number][] => [
  ['Waiting', s.waiting],
  ['Scheduled', s.delayed],
  ['Sending', s.active],
  ['Sent', s.completed],
  ['Failed', s.failed],
];

/** Jobs a purge would remove: not yet submitted (waiting or scheduled). */
export const purgeable = (jobs: readonly QueueJob[]): number => jobs.filter((j) => j.status === 'waiting' || j.status === 'delayed').length;

/** `/queue/jobs?limit=100[&status=…]` for the listing. */
export const jobsPath = (status: string, limit = 100): string =>
  `/queue/jobs?limit=${limit}${status ? `&status=${encodeURIComponent(status)}` : ''}`;

/** A BullMQ timestamp (ms) as the reader's local date and time; '' when none. */
export const when = (ms: number | null): string => (ms ? new Date(ms).toLocaleString() : '');
