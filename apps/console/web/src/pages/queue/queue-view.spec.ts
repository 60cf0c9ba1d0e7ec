import type { QueueJob } from '../../api/types';
import { jobsPath, purgeable, queueCounts } from './queue-view';

const job = (status: string) => ({ id: status, status, data: { chat_id: 'x', body: null } }) as QueueJob;

describe('console queue page logic', () => {
  it('lists the counts, unsent first', () => {
    expect(
      queueCounts({ phone_id: 'p', waiting: 2, delayed: 1, active: 0, completed: 5, failed: 1, pending: 3, is_running: true }),
    ).toEqual([
      ['Waiting', 2],
      ['Scheduled', 1],
      ['Sending', 0],
      ['Sent', 5],
      ['Failed', 1],
    ]);
  });
  it('counts as purgeable only jobs not yet submitted', () => {
    expect(purgeable(['waiting', 'delayed', 'active', 'completed', 'failed'].map(job))).toBe(2);
  });
  it('filters the listing by status only when one is chosen', () => {
    expect(jobsPath('')).toBe('/queue/jobs?limit=100');
    expect(jobsPath('delayed', 10)).toBe('/queue/jobs?limit=10&status=delayed');
  });
});
