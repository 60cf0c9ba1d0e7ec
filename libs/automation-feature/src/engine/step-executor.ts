import { DueWorkLoop } from '@mapi/events';
import type { Logger } from 'pino';
import type { RunRow, StepRow } from '../repositories/run-repository';
import type { RpcCaller } from './actions/action-context';
import type { ActionServices } from './actions/more-actions';
import { STEP_CHANNEL, type ClaimedStep, type RunStore } from './run-store';
import { runStep } from './step-runner';

export interface StepExecutorOptions {
  batch: number;
  leaseMs: number;
  maxAttempts: number;
  /** Longest sleep while wake-ups work (nothing due sooner). */
  idlePollMs: number;
  /** Longest sleep while they do not (no listenUrl, or its connection is down). */
  fallbackPollMs: number;
  /** Postgres URL for wake-ups (LISTEN mapi_automation_steps): a step made due in any process is run at once. */
  listenUrl?: string;
  /** Tests only: wait this long between an action that calls a service and recording it (a crash test kills the process meanwhile). */
  holdAfterActionMs?: number;
  /** What actions need beyond RPCs (notify_http's HTTP client, the AI agent). */
  services?: ActionServices;
}

/** Steps decided by the walker alone (no service called): the fault hold does not apply to them. */
const FLOW = ['validate_action', 'split_path', 'delay'];

/**
 * Runs due steps, in every replica: each round claims what is due (RunStore.claim: FOR UPDATE SKIP
 * LOCKED, a lease, committed at once), reads the claimed steps' runs once (RunStore.runs), runs the
 * actions outside any transaction, records each outcome (only while this claim still holds the step).
 * Between rounds it sleeps (DueWorkLoop) until the next step is due by the database's clock — or a
 * step made due in any process is announced (LISTEN: it wakes at once), or the idle poll. At rest it
 * costs one transaction per idle poll. A replica killed mid-step leaves the step leased; when the
 * lease ends another claims it and runs the action again with the same idempotency key.
 */
export class StepExecutor {
  private readonly loop: DueWorkLoop;

  constructor(
    private readonly store: RunStore,
    private readonly rpc: RpcCaller,
    private readonly logger: Logger,
    private readonly options: StepExecutorOptions,
  ) {
    this.loop = new DueWorkLoop(
      async () => {
        const { ran, nextDueInMs } = await this.round();
        return { more: ran > 0 && nextDueInMs === 0, nextDueInMs };
      },
      logger,
      { idlePollMs: options.idlePollMs, fallbackPollMs: options.fallbackPollMs, listenUrl: options.listenUrl, channel: STEP_CHANNEL, what: 'claiming workflow steps' },
    );
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** A step became due (announced by the intake in this process; pg_notify from any arrives through the loop's LISTEN): look now. */
  due(): void {
    this.loop.announce();
  }

  /** One round: claim, run, record. Exposed for tests (two executors racing, a claim abandoned). */
  async round(): Promise<{ ran: number; nextDueInMs: number | null }> {
    const { steps, nextDueInMs } = await this.store.claim(this.options.batch, this.options.leaseMs);
    if (steps.length) {
      const runs = await this.store.runs(steps.map((s) => ({ org_id: s.org_id, run_id: s.run_id })));
      await Promise.all(steps.map((s) => this.execute(s, runs.get(`${s.org_id}|${s.run_id}`))));
    }
    return { ran: steps.length, nextDueInMs: steps.length === this.options.batch ? 0 : nextDueInMs };
  }

  private async execute(step: ClaimedStep, read: { run: RunRow; steps: StepRow[] } | undefined): Promise<void> {
    try {
      if (!read || read.run.status !== 'running') return void (await this.store.skip(step, 'the run no longer runs'));
      const earlier = read.steps.filter((s) => s.step_id !== step.step_id);
      const outcome = await runStep(this.rpc, step, read.run, earlier, this.options.maxAttempts, this.options.services);
      if (this.options.holdAfterActionMs && !FLOW.includes(step.action_type)) await new Promise((r) => setTimeout(r, this.options.holdAfterActionMs));
      if (!(await this.store.record(step, outcome))) this.logger.warn({ step_id: step.step_id }, 'a step\'s claim ended before its outcome was recorded; the next claim records it');
    } catch (err) {
      // recording failed (database down): the lease ends and the step is claimed again, same idempotency key
      this.logger.error({ err, step_id: step.step_id }, 'running a workflow step failed; it will be claimed again');
    }
  }
}
