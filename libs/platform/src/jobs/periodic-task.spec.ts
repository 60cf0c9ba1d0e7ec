import { PeriodicTask } from './periodic-task';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PeriodicTask', () => {
  it('runs the first round after its delay, then one every interval after the last ended, never two at once', async () => {
    const starts: number[] = [];
    let inRound = 0;
    let overlapped = false;
    const t0 = Date.now();
    const task = new PeriodicTask(
      async () => {
        if (inRound++) overlapped = true;
        starts.push(Date.now() - t0);
        await sleep(30);
        inRound--;
      },
      { intervalMs: 20, firstDelayMs: 40, onError: () => undefined },
    );
    task.start();
    await sleep(25);
    expect(starts).toEqual([]);
    await sleep(175);
    await task.stop();
    expect(overlapped).toBe(false);
    expect(starts.length).toBeGreaterThanOrEqual(2);
    expect(starts[0]).toBeGreaterThanOrEqual(35);
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(45);
  });

  it('hands a failed round to onError and keeps going; stop() waits for the round under way and ends the rounds', async () => {
    const errors: unknown[] = [];
    let rounds = 0;
    let finished = 0;
    const task = new PeriodicTask(
      async () => {
        rounds++;
        await sleep(20);
        finished++;
        if (rounds === 1) throw new Error('boom');
      },
      { intervalMs: 5, firstDelayMs: 0, onError: (err) => errors.push(err) },
    );
    task.start();
    while (rounds < 3) await sleep(2);
    await task.stop();
    expect(task.isStopped).toBe(true);
    expect(finished).toBe(rounds);
    expect((errors[0] as Error).message).toBe('boom');
    const after = rounds;
    await sleep(40);
    expect(rounds).toBe(after);
  });
});
