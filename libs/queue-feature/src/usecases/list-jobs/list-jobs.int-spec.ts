import { testEnv } from '@mapi/testing';
import { sendHarness } from '../../testing/send-harness';
import { ListJobs } from './list-jobs.usecase';

/**
 * GET /queue/jobs?queue_id= read while the job finishes (real Redis, real BullMQ worker): a job shown
 * as completed always carries its result. Read hash-then-state, a job completing between the two
 * reads showed "completed" with unique_id null (seen once in CI, in queue-crash.e2e-spec).
 */
describe('ListJobs while jobs complete', () => {
  const h = sendHarness(testEnv, { tag: 'lj' });

  it('never answers a completed job without its unique_id and message_id', async () => {
    const ids = await h.add(h.phone, 40);
    await h.startWorkers();
    const list = new ListJobs(h.queues);
    const read = (id: string) => list.execute({ ctx: { phone: { phone_id: h.phone } }, query: { queue_id: id } } as never);

    // Poll each job from before it runs until it is completed, several readers at once.
    let completedReads = 0;
    const broken: unknown[] = [];
    const deadline = Date.now() + 30_000; // bounded however slow the machine is
    await Promise.all(
      ids.map(async (id) => {
        while (Date.now() < deadline) {
          const [job] = await read(id);
          if (job?.status !== 'completed') continue;
          completedReads++;
          if (!job.unique_id || !job.message_id) broken.push(job);
          return;
        }
      }),
    );
    expect(broken).toEqual([]);
    expect(completedReads).toBe(ids.length);
  }, 60_000);
});
