import { randomUUID } from 'node:crypto';
import type { EventInput, Workflow, WorkflowRun } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { writeEvents } from '@mapi/events';
import { mapRun } from '../map-run';
import type { RunRow, StepRow } from '../repositories/run-repository';

/** pg_notify channel: a step became due (a run started, a next step was scheduled); executors LISTEN on it. */
export const STEP_CHANNEL = 'mapi_automation_steps';

type Tx = Prisma.TransactionClient;

/**
 * Transactions that end runs write their events under the outbox lock, which every writer of the
 * database takes in turn: when many runs end at once they queue for it, so they may wait longer than
 * Prisma's 5 s default without anything being wrong.
 */
export const TX_OPTIONS = { maxWait: 10_000, timeout: 30_000 };

/** A run to start: the workflow, the event, and `skipped` with its reason when a limit holds it back. */
export interface RunStart {
  run_id: string;
  workflow: Pick<Workflow, 'id' | 'org_id' | 'trigger' | 'trigger_metadata' | 'actions'>;
  event: { event_id: string; event_type: string; phone_id: string | null; chat_id: string | null; raw: Prisma.InputJsonValue };
  skipped: string | null;
}

/** A step an executor holds until its lease ends; `attempts` is the fencing token of this claim. */
export interface ClaimedStep {
  step_id: string;
  run_id: string;
  org_id: string;
  action_id: string;
  action_type: string;
  attempts: number;
}

/** How a step ended: done (and what comes next), failed for good, or to be tried again later. */
export type StepOutcome =
  | { status: 'completed'; result: Prisma.InputJsonValue; next: { action_id: string; action_type: string; delay_ms: number } | null }
  | { status: 'failed'; error: string; result?: Prisma.InputJsonValue }
  /** Deliberately not done (the AI agent switched off): the step skipped with the reason, the run ends completed with it. */
  | { status: 'skipped'; reason: string; result?: Prisma.InputJsonValue }
  | { status: 'retry'; error: string; retry_in_ms: number };

/**
 * Runs and steps as the engine writes them. Every write that makes a step due notifies STEP_CHANNEL
 * at commit; a run that ends writes its workflow.run.* event in the same transaction (last: the
 * outbox lock is held to the commit).
 */
export class RunStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** The run ids of (workflow, event) pairs that already have a run. */
  async existing(tx: Tx, eventIds: string[]): Promise<Set<string>> {
    if (!eventIds.length) return new Set();
    const rows = await tx.automationRun.findMany({ where: { event_id: { in: eventIds } }, select: { workflow_id: true, event_id: true } });
    return new Set(rows.map((r) => `${r.workflow_id}|${r.event_id}`));
  }

  /**
   * Writes the runs and each running one's first step (due now) in the caller's transaction; a run
   * with no first action completes at once. Unique (workflow_id, event_id): a pair already started
   * is left as it is. The events of runs that ended are written last.
   */
  async start(tx: Tx, starts: RunStart[]): Promise<number> {
    if (!starts.length) return 0;
    const now = new Date();
    const runs = starts.map((s) => ({
      run_id: s.run_id,
      org_id: s.workflow.org_id,
      workflow_id: s.workflow.id,
      event_id: s.event.event_id,
      event_type: s.event.event_type,
      phone_id: s.event.phone_id,
      chat_id: s.event.chat_id,
      event: s.event.raw,
      definition: { trigger: s.workflow.trigger, trigger_metadata: s.workflow.trigger_metadata, actions: s.workflow.actions } as unknown as Prisma.InputJsonValue,
      status: s.skipped ? 'skipped' : s.workflow.trigger_metadata.first_action_id ? 'running' : 'completed',
      reason: s.skipped,
      started_at: now,
      finished_at: s.skipped || !s.workflow.trigger_metadata.first_action_id ? now : null,
    }));
    await tx.automationRun.createMany({ data: runs, skipDuplicates: true });
    const steps = starts.flatMap((s) => {
      const first = s.workflow.trigger_metadata.first_action_id;
      const action = first && !s.skipped ? s.workflow.actions.find((a) => a.id === first) : undefined;
      return action ? [{ step_id: randomUUID(), run_id: s.run_id, org_id: s.workflow.org_id, action_id: action.id, action_type: action.action_metadata.type, due_at: now }] : [];
    });
    if (steps.length) {
      await tx.automationStep.createMany({ data: steps, skipDuplicates: true });
      await tx.$executeRaw`SELECT pg_notify(${STEP_CHANNEL}, '')`;
    }
    const ended = runs.filter((r) => r.status === 'completed');
    await writeEvents(tx, ended.map((r) => runEvent({ ...r, event: r.event as Prisma.JsonValue, definition: r.definition as Prisma.JsonValue, steps: [] })));
    return steps.length;
  }

  /**
   * Claims up to `limit` due steps (pending, due, not held under a live lease) for `leaseMs`, skipping
   * rows another executor is claiming (FOR UPDATE SKIP LOCKED); commits the claim at once, so no
   * transaction is held while the actions run. Also answers how long until the next step is due.
   */
  async claim(limit: number, leaseMs: number): Promise<{ steps: ClaimedStep[]; nextDueInMs: number | null }> {
    return this.prisma.$transaction(async (tx) => {
      const steps = await tx.$queryRaw<ClaimedStep[]>`
        WITH due AS (
          SELECT step_id FROM automation_steps
          WHERE status = 'pending' AND due_at <= now() AND (claimed_until IS NULL OR claimed_until <= now())
          ORDER BY due_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        UPDATE automation_steps s
        SET claimed_until = now() + make_interval(secs => ${leaseMs / 1000}::float8), attempts = s.attempts + 1, started_at = COALESCE(s.started_at, now())
        FROM due WHERE s.step_id = due.step_id
        RETURNING s.step_id, s.run_id, s.org_id, s.action_id, s.action_type, s.attempts`;
      const [next] = await tx.$queryRaw<{ ms: number | null }[]>`
        SELECT (EXTRACT(EPOCH FROM (min(GREATEST(due_at, COALESCE(claimed_until, due_at))) - now())) * 1000)::float8 AS ms
        FROM automation_steps WHERE status = 'pending'`;
      return { steps, nextDueInMs: next?.ms ?? null };
    });
  }

  /**
   * The runs of claimed steps with their steps so far, read once per round whatever number of the
   * batch's steps each run has (two queries): keyed `org_id|run_id`, each read under the step's own
   * organization (a run of another organization with the same id is not returned for it).
   */
  async runs(keys: { org_id: string; run_id: string }[]): Promise<Map<string, { run: RunRow; steps: StepRow[] }>> {
    const out = new Map<string, { run: RunRow; steps: StepRow[] }>();
    if (!keys.length) return out;
    const where = { OR: keys.map((k) => ({ org_id: k.org_id, run_id: k.run_id })) };
    const [runs, steps] = await Promise.all([
      this.prisma.automationRun.findMany({ where }),
      this.prisma.automationStep.findMany({ where, orderBy: [{ created_at: 'asc' }, { step_id: 'asc' }] }),
    ]);
    for (const run of runs) out.set(`${run.org_id}|${run.run_id}`, { run, steps: [] });
    for (const s of steps) out.get(`${s.org_id}|${s.run_id}`)?.steps.push(s);
    return out;
  }

  /**
   * Records a claimed step's outcome in one transaction, only if this claim still holds it (same
   * `attempts`, still pending: a claim whose lease ended and was taken over records nothing). Done:
   * the next step is written (due after its delay) or, with none, the run completes; failed: the
   * run fails; retry: the step is due again later. False when the claim had been lost.
   */
  record(step: ClaimedStep, outcome: StepOutcome): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      if (outcome.status === 'retry') {
        const n = await tx.$executeRaw`
          UPDATE automation_steps SET claimed_until = NULL, error = ${outcome.error}, due_at = now() + make_interval(secs => ${outcome.retry_in_ms / 1000}::float8)
          WHERE step_id = ${step.step_id}::uuid AND org_id = ${step.org_id}::uuid AND status = 'pending' AND attempts = ${step.attempts}`;
        if (n) await tx.$executeRaw`SELECT pg_notify(${STEP_CHANNEL}, '')`;
        return n > 0;
      }
      const result = outcome.result === undefined ? null : JSON.stringify(outcome.result);
      const error = outcome.status === 'failed' ? outcome.error : outcome.status === 'skipped' ? outcome.reason : null;
      const n = await tx.$executeRaw`
        UPDATE automation_steps SET status = ${outcome.status}, result = ${result}::jsonb, error = ${error}, claimed_until = NULL, finished_at = now()
        WHERE step_id = ${step.step_id}::uuid AND org_id = ${step.org_id}::uuid AND status = 'pending' AND attempts = ${step.attempts}`;
      if (!n) return false;
      if (outcome.status === 'completed' && outcome.next) {
        await tx.$executeRaw`
          INSERT INTO automation_steps (step_id, run_id, org_id, action_id, action_type, due_at)
          VALUES (${randomUUID()}::uuid, ${step.run_id}::uuid, ${step.org_id}::uuid, ${outcome.next.action_id}, ${outcome.next.action_type}, now() + make_interval(secs => ${outcome.next.delay_ms / 1000}::float8))
          ON CONFLICT (run_id, action_id) DO NOTHING`;
        await tx.$executeRaw`SELECT pg_notify(${STEP_CHANNEL}, '')`;
        return true;
      }
      await this.finish(tx, step, outcome.status === 'failed' ? 'failed' : 'completed', error);
      return true;
    }, TX_OPTIONS);
  }

  /** Ends a run (if still running) and writes its event, last. */
  private async finish(tx: Tx, step: ClaimedStep, status: 'completed' | 'failed', reason: string | null): Promise<void> {
    const n = await tx.$executeRaw`
      UPDATE automation_runs SET status = ${status}, reason = ${reason}, finished_at = now()
      WHERE run_id = ${step.run_id}::uuid AND org_id = ${step.org_id}::uuid AND status = 'running'`;
    if (!n) return;
    const run = await tx.automationRun.findFirstOrThrow({ where: { org_id: step.org_id, run_id: step.run_id } });
    const steps = await tx.automationStep.findMany({ where: { org_id: step.org_id, run_id: step.run_id }, orderBy: [{ created_at: 'asc' }, { step_id: 'asc' }] });
    await writeEvents(tx, [runEvent({ ...run, steps })]);
  }

  /** Skips a claimed step whose run no longer runs (its workflow was deleted meanwhile). */
  async skip(step: ClaimedStep, why: string): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE automation_steps SET status = 'skipped', error = ${why}, claimed_until = NULL, finished_at = now()
      WHERE step_id = ${step.step_id}::uuid AND org_id = ${step.org_id}::uuid AND status = 'pending' AND attempts = ${step.attempts}`;
  }
}

function runEvent(run: RunRow & { steps: StepRow[] }): EventInput {
  const data: WorkflowRun = mapRun(run);
  return { type: run.status === 'failed' ? 'workflow.run.failed' : 'workflow.run.completed', org_id: run.org_id, phone_id: run.phone_id, data };
}
