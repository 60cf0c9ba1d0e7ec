import { OutboxWakeups } from '@mapi/events';
import type { Logger } from 'pino';
import type { RpcCaller } from './actions/action-context';
import { STEP_CHANNEL, type ClaimedStep, type RunStore } from './run-store';
import { runStep, type ActionServices } from './step-runner';

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
  /** What actions need beyond RPC (the AI agent). */
  services?: ActionServices;
}

/** Steps decided by the walker alone (no service called): the fault hold does not apply to them. */
const FLOW = ['validate_action', 'split_path', 'delay'];

/** A step held by another executor is looked at again this soon after its lease ends. */
const HELD_RETRY_MS = 25;

/**
 * Runs due steps, in every replica: each round claims what is due (RunStore.claim: FOR UPDATE SKIP
 * LOCKED, a lease, committed at once), runs the actions outside any transaction, records each outcome
 * (only while this claim still holds the step), then sleeps until the next step is due by the
 * database's clock — or a step made due in any process is announced (LISTEN), or the idle poll. At
 * rest it costs one transaction per idle poll. A replica killed mid-step leaves the step leased; when
 * the lease ends another claims it and runs the action again with the same idempotency key.
 */
export class StepExecutor {
  private running = false;
  private loop?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private announced = Infinity;
  private resolveSleep?: () => void;
  private readonly wakeups?: OutboxWakeups;

  constructor(
    private readonly store: RunStore,
    private readonly rpc: RpcCaller,
    private readonly logger: Logger,
    private readonly options: StepExecutorOptions,
  ) {
    if (options.listenUrl) this.wakeups = new OutboxWakeups(options.listenUrl, () => this.due(), logger, 1_000, STEP_CHANNEL);
  }

  async start(): Promise<void> {
    this.running = true;
    await this.wakeups?.start();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeNow();
    await this.loop;
    await this.wakeups?.stop();
  }

  /** A step became due (announced by the intake in this process, or by pg_notify from any). */
  due(): void {
    this.announced = Date.now();
    if (this.resolveSleep) this.wakeNow();
  }

  private wakeNow(): void {
    clearTimeout(this.timer);
    const resolve = this.resolveSleep;
    this.resolveSleep = undefined;
    resolve?.();
  }

  private sleepUntil(at: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wakeNow(), Math.max(0, at - Date.now()));
  }

  /** One round: claim, run, record. Exposed for tests (two executors racing, a claim abandoned). */
  async round(): Promise<{ ran: number; nextDueInMs: number | null }> {
    const { steps, nextDueInMs } = await this.store.claim(this.options.batch, this.options.leaseMs);
    await Promise.all(steps.map((s) => this.execute(s)));
    return { ran: steps.length, nextDueInMs: steps.length === this.options.batch ? 0 : nextDueInMs };
  }

  private async execute(step: ClaimedStep): Promise<void> {
    try {
      const run = await this.store.run(step.org_id, step.run_id);
      if (!run || run.status !== 'running') return void (await this.store.skip(step, 'the run no longer runs'));
      const earlier = (await this.store.steps(step.org_id, step.run_id)).filter((s) => s.step_id !== step.step_id);
      const outcome = await runStep(this.rpc, step, run, earlier, this.options.maxAttempts, this.options.services);
      if (this.options.holdAfterActionMs && !FLOW.includes(step.action_type)) await new Promise((r) => setTimeout(r, this.options.holdAfterActionMs));
      if (!(await this.store.record(step, outcome))) this.logger.warn({ step_id: step.step_id }, 'a step\'s claim ended before its outcome was recorded; the next claim records it');
    } catch (err) {
      // recording failed (database down): the lease ends and the step is claimed again, same idempotency key
      this.logger.error({ err, step_id: step.step_id }, 'running a workflow step failed; it will be claimed again');
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      let delay: number;
      this.announced = Infinity;
      try {
        const { ran, nextDueInMs } = await this.round();
        if (ran && nextDueInMs === 0) continue;
        const idle = this.wakeups?.listening ? this.options.idlePollMs : this.options.fallbackPollMs;
        delay = nextDueInMs === null ? idle : Math.min(idle, Math.max(nextDueInMs, HELD_RETRY_MS));
      } catch (err) {
        this.logger.warn({ err }, 'claiming workflow steps failed; retrying');
        delay = 1_000;
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        this.resolveSleep = resolve;
        this.sleepUntil(Math.min(Date.now() + delay, this.announced));
      });
    }
  }
}
