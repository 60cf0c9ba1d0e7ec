import type { ClaimedStep, RunStore, StepOutcome } from './run-store';

interface Pending {
  step: ClaimedStep;
  outcome: StepOutcome;
  resolve: (recorded: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit of step outcomes: an outcome is written as soon as it is known — alone when nothing is
 * being written, else with every outcome that arrived meanwhile, in the next transaction
 * (RunStore.recordMany). So a round's steps cost a few transactions, not one each, and no finished
 * step waits for the round's slowest one to be recorded (a worker killed mid-round leaves unrecorded,
 * hence re-run, only the steps whose outcome was not yet written).
 */
export class OutcomeWriter {
  private queue: Pending[] = [];
  private writing = false;

  constructor(private readonly store: RunStore) {}

  /** Resolves with whether the claim still held the step (it was recorded); rejects when the write failed. */
  write(step: ClaimedStep, outcome: StepOutcome): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ step, outcome, resolve, reject });
      if (!this.writing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.writing = true;
    while (this.queue.length) {
      const batch = this.queue;
      this.queue = [];
      try {
        const recorded = await this.store.recordMany(batch.map(({ step, outcome }) => ({ step, outcome })));
        batch.forEach((p, i) => p.resolve(recorded[i]));
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
    this.writing = false;
  }
}
