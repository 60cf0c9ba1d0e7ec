import { DueWorkLoop } from '@mapi/events';
import type { Logger } from 'pino';
import type { RunRow, StepRow } from '../repositories/run-repository';
import type { RpcCaller } from './actions/action-context';
import type { ActionServices } from './actions/more-actions';
import type { AutomationMetrics } from './automation-metrics';
import { OutcomeWriter } from './outcome-writer';
import type { FirstStepTaker, HandoffClaim } from './run-starts';
import { STEP_CHANNEL, type ClaimedStep, type RunStore } from './run-store';
import { runStep } from './step-runner';
import { WorkerLiveness } from './worker-liveness';

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
  /**
   * Postgres URL (direct: a session) for this executor's liveness lock (WorkerLiveness): its claims are
   * tagged with its worker id, and taken over at once by another executor when it dies. Absent: claims
   * are untagged and a dead executor's wait for their lease.
   */
  livenessUrl?: string;
  /** While another executor holds steps, look this often whether it died (default 200 ms). */
  ownerCheckMs?: number;
  /** Step durations and the event → first action latency are recorded here. */
  metrics?: AutomationMetrics;
  /** Tests only: wait this long between an action that calls a service and recording it (a crash test kills the process meanwhile). */
  holdAfterActionMs?: number;
  /** What actions need beyond RPCs (notify_http's HTTP client, the AI agent). */
  services?: ActionServices;
  /** At most this many first steps handed over by the intake running at once (the service sets 4 × AUTOMATION_STEP_BATCH; 0 or absent: none, every step is claimed by the rounds). */
  handoffMax?: number;
}

/** Steps decided by the walker alone (no service called): the fault hold does not apply to them. */
const FLOW = ['validate_action', 'split_path', 'delay'];

/**
 * Runs due steps, in every replica: each round claims what is due (RunStore.claim: FOR UPDATE SKIP
 * LOCKED, a lease and this executor's worker id, committed at once), reads the claimed steps' runs
 * once (RunStore.runs), runs the actions outside any transaction, and writes each outcome as soon as
 * it is known, grouped with the others that finish meanwhile (OutcomeWriter: only while this claim
 * still holds the step). Between rounds it sleeps (DueWorkLoop) until the next step is due by the
 * database's clock — or a step made due in any process is announced (LISTEN: it wakes at once), or
 * the idle poll; while another executor holds steps it looks every `ownerCheckMs` whether that one
 * died. At rest it costs one transaction per idle poll. A replica killed mid-step leaves its claims
 * tagged with a worker id whose liveness lock went with its connection: another executor claims them
 * at its next look (≈ ownerCheckMs) and runs those actions again with the same idempotency key; a
 * replica cut off without its connection closing (a network partition) holds them until the lease ends.
 */
export class StepExecutor implements FirstStepTaker {
  private readonly loop: DueWorkLoop;
  /** First steps handed over by the intake and not finished, and the work running them. */
  private handedOpen = 0;
  private readonly handedWork = new Set<Promise<void>>();
  private stopping = false;
  private readonly writer: OutcomeWriter;
  private readonly liveness?: WorkerLiveness;

  constructor(
    private readonly store: RunStore,
    private readonly rpc: RpcCaller,
    private readonly logger: Logger,
    private readonly options: StepExecutorOptions,
  ) {
    this.writer = new OutcomeWriter(store);
    if (options.livenessUrl) this.liveness = new WorkerLiveness(options.livenessUrl, logger);
    this.loop = new DueWorkLoop(
      async () => {
        const { ran, nextDueInMs } = await this.round();
        return { more: ran > 0 && nextDueInMs === 0, nextDueInMs };
      },
      logger,
      {
        idlePollMs: options.idlePollMs,
        fallbackPollMs: options.fallbackPollMs,
        listenUrl: options.listenUrl,
        channel: STEP_CHANNEL,
        what: 'claiming workflow steps',
      },
    );
  }

  async start(): Promise<void> {
    await this.liveness?.start();
    await this.loop.start();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    // the liveness lock is held until the handed steps are recorded: released earlier, another executor would take them over meanwhile
    await Promise.all(this.handedWork);
    await this.liveness?.stop();
  }

  /**
   * What the intake may claim for this executor in its transaction: its worker id (only a tagged
   * claim is taken over at once if this process dies before running it; untagged, none is offered)
   * and the room left under `handoffMax`.
   */
  offer(): HandoffClaim | null {
    const owner = this.workerId;
    const room = (this.options.handoffMax ?? 0) - this.handedOpen;
    return owner && room > 0 && !this.stopping ? { owner, room, leaseMs: this.options.leaseMs } : null;
  }

  /**
   * Runs first steps the intake claimed for this executor (committed: its worker id, a lease,
   * attempts 1) at once, without a claim round trip: their runs are read once, each action runs and
   * its outcome is group-committed like a round's. If the process dies first, the claims are taken
   * over by another executor (the liveness lock went with it); nothing is run twice by this one.
   */
  take(steps: ClaimedStep[]): void {
    this.handedOpen += steps.length;
    const work = (async () => {
      const runs = await this.store.runs(steps.map((s) => ({ org_id: s.org_id, run_id: s.run_id })));
      await Promise.all(steps.map((s) => this.execute(s, runs.get(`${s.org_id}|${s.run_id}`), Date.now())));
    })()
      .catch((err) =>
        this.logger.error({ err }, 'reading the runs of handed-over steps failed; they are claimed again when their lease ends'),
      )
      .finally(() => {
        this.handedOpen -= steps.length;
        this.handedWork.delete(work);
      });
    this.handedWork.add(work);
  }

  /** The id this executor's claims are tagged with (null: untagged). */
  get workerId(): string | null {
    return this.liveness?.id ?? null;
  }

  /** A step became due (announced by the intake in this process; pg_notify from any arrives through the loop's LISTEN): look now. */
  due(): void {
    this.loop.announce();
  }

  /** One round: claim, run, record. Exposed for tests (two executors racing, a claim abandoned). */
  async round(): Promise<{ ran: number; nextDueInMs: number | null }> {
    const { steps, nextDueInMs } = await this.store.claim(
      this.options.batch,
      this.options.leaseMs,
      this.workerId,
      this.options.ownerCheckMs,
    );
    if (steps.length) {
      const claimedAt = Date.now();
      const runs = await this.store.runs(steps.map((s) => ({ org_id: s.org_id, run_id: s.run_id })));
      await Promise.all(steps.map((s) => this.execute(s, runs.get(`${s.org_id}|${s.run_id}`), claimedAt)));
    }
    return { ran: steps.length, nextDueInMs: steps.length === this.options.batch ? 0 : nextDueInMs };
  }

  private async execute(step: ClaimedStep, read: { run: RunRow; steps: StepRow[] } | undefined, claimedAt: number): Promise<void> {
    try {
      if (!read || read.run.status !== 'running') return void (await this.store.skip(step, 'the run no longer runs'));
      const metrics = this.options.metrics;
      if (metrics && step.attempts === 1 && isFirstAction(read.run, step))
        metrics.firstActionStarted(claimedAt - Date.parse(String((read.run.event as { created_at?: string }).created_at)));
      const earlier = read.steps.filter((s) => s.step_id !== step.step_id);
      step.began_at = Date.now();
      const began = performance.now();
      const outcome = await runStep(this.rpc, step, read.run, earlier, this.options.maxAttempts, this.options.services);
      metrics?.step(step.action_type, outcome.status, (performance.now() - began) / 1000);
      if (this.options.holdAfterActionMs && !FLOW.includes(step.action_type))
        await new Promise((r) => setTimeout(r, this.options.holdAfterActionMs));
      if (!(await this.writer.write(step, outcome)))
        this.logger.warn({ step_id: step.step_id }, "a step's claim ended before its outcome was recorded; the next claim records it");
    } catch (err) {
      // recording failed (database down): the lease ends and the step is claimed again, same idempotency key
      this.logger.error({ err, step_id: step.step_id }, 'running a workflow step failed; it will be claimed again');
    }
  }
}

/** Whether the step is its run's first action (the trigger's first_action_id in the run's copy of the definition). */
function isFirstAction(run: RunRow, step: ClaimedStep): boolean {
  const definition = run.definition as { trigger_metadata?: { first_action_id?: string | null } } | null;
  return definition?.trigger_metadata?.first_action_id === step.action_id;
}
