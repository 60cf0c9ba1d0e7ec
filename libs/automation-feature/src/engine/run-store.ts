import { randomUUID } from 'node:crypto';
import type { EventInput, WorkflowRun } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { writeEvents } from '@mapi/events';
import { mapRun } from '../map-run';
import type { RunRow, StepRow } from '../repositories/run-repository';
import type { AutomationMetrics, RunStatus } from './automation-metrics';
import { WORKER_LOCK_PREFIX } from './worker-liveness';

/** pg_notify channel: a step became due (a run started, a next step was scheduled); executors LISTEN on it. */
export const STEP_CHANNEL = 'mapi_automation_steps';

type Tx = Prisma.TransactionClient;

/**
 * Transactions that end runs write their events under the outbox lock, which every writer of the
 * database takes in turn: when many runs end at once they queue for it, so they may wait longer than
 * Prisma's 5 s default without anything being wrong.
 */
export const TX_OPTIONS = { maxWait: 10_000, timeout: 30_000 };

/** A step an executor holds until its lease ends; `attempts` is the fencing token of this claim. */
export interface ClaimedStep {
  step_id: string;
  run_id: string;
  org_id: string;
  action_id: string;
  action_type: string;
  attempts: number;
  /** When the executor began the action (epoch ms): recorded as the step's started_at if its claim did not set one (a step the intake handed over). */
  began_at?: number;
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
  constructor(
    private readonly prisma: PrismaClient,
    /** Runs ended are counted here (after their commit); absent in tests that do not read metrics. */
    readonly metrics?: AutomationMetrics,
  ) {}

  /**
   * Claims up to `limit` due steps for `leaseMs`, skipping rows another executor is claiming (FOR
   * UPDATE SKIP LOCKED); commits the claim at once, so no transaction is held while the actions run.
   * A step is claimable when pending, due, and not held: its lease ended, or it was claimed under a
   * worker id whose liveness lock is free (WorkerLiveness: its executor died, its session is gone) —
   * taken over at once, not after the lease. Claims are tagged with `owner` (null: untagged, only the
   * lease protects them). Also answers how long until the next step is due: a step held by a live
   * executor counts as due in `ownerCheckMs` (capped by its lease), so a survivor looks again soon
   * after its owner may have died.
   */
  async claim(
    limit: number,
    leaseMs: number,
    owner: string | null = null,
    ownerCheckMs = 200,
  ): Promise<{ steps: ClaimedStep[]; nextDueInMs: number | null }> {
    return this.prisma.$transaction(async (tx) => {
      // each owner's session lock tried for this transaction only (released at commit): taken ⇒ its session is gone
      const dead = await tx.$queryRaw<{ id: string }[]>`
        SELECT o.claimed_by::text AS id FROM (
          SELECT DISTINCT claimed_by FROM automation_steps WHERE status = 'pending' AND claimed_by IS NOT NULL AND claimed_until > now()) o
        WHERE pg_try_advisory_xact_lock(hashtextextended(${WORKER_LOCK_PREFIX} || o.claimed_by::text, 0))`;
      const deadIds = dead.map((d) => d.id);
      const steps = await tx.$queryRaw<ClaimedStep[]>`
        WITH due AS (
          SELECT step_id FROM automation_steps
          WHERE status = 'pending' AND due_at <= now()
            AND (claimed_until IS NULL OR claimed_until <= now() OR claimed_by = ANY(${deadIds}::uuid[]))
          ORDER BY due_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        UPDATE automation_steps s
        SET claimed_until = now() + make_interval(secs => ${leaseMs / 1000}::float8), claimed_by = ${owner}::uuid, attempts = s.attempts + 1, started_at = COALESCE(s.started_at, now())
        FROM due WHERE s.step_id = due.step_id
        RETURNING s.step_id, s.run_id, s.org_id, s.action_id, s.action_type, s.attempts`;
      // a full batch goes round again at once: no need to know when the next step is due
      if (steps.length === limit) return { steps, nextDueInMs: 0 };
      // two index walks (not a scan of every pending step): the next step due later, and the earliest
      // end of a hold on a step already due (another live owner's: looked at again within ownerCheckMs;
      // this executor's own claims of this round are recorded before it sleeps)
      const [next] = await tx.$queryRaw<{ ms: number | null }[]>`
        SELECT (EXTRACT(EPOCH FROM (LEAST(
          (SELECT min(due_at) FROM automation_steps WHERE status = 'pending' AND due_at > now()),
          (SELECT min(CASE WHEN claimed_by IS NOT NULL THEN LEAST(claimed_until, now() + make_interval(secs => ${ownerCheckMs / 1000}::float8)) ELSE claimed_until END)
           FROM automation_steps WHERE status = 'pending' AND due_at <= now() AND claimed_until > now()
             AND (${owner}::uuid IS NULL OR claimed_by IS DISTINCT FROM ${owner}::uuid))
        ) - now())) * 1000)::float8 AS ms`;
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

  /** Records one claimed step's outcome (recordMany of one). */
  async record(step: ClaimedStep, outcome: StepOutcome): Promise<boolean> {
    return (await this.recordMany([{ step, outcome }]))[0];
  }

  /**
   * Records claimed steps' outcomes in ONE transaction (a handful of set-wise statements, whatever
   * their number), each only if its claim still holds the step (same `attempts`, still pending: a
   * claim whose lease ended, or whose executor was thought dead, and was taken over records nothing).
   * Done: the next step is written (due after its delay) or, with none, the run completes; failed:
   * the run fails; retry: the step is due again later. Answers, per item, whether it was recorded.
   */
  async recordMany(items: { step: ClaimedStep; outcome: StepOutcome }[]): Promise<boolean[]> {
    if (!items.length) return [];
    const ended: RunStatus[] = [];
    const recorded = await this.prisma.$transaction(async (tx) => {
      const retries = items.filter((i) => i.outcome.status === 'retry');
      const finals = items.filter((i) => i.outcome.status !== 'retry');
      const done = new Set<string>();
      if (retries.length) {
        const rows = retries.map(({ step, outcome }) => ({
          ...keyOf(step),
          error: (outcome as { error: string }).error,
          ms: (outcome as { retry_in_ms: number }).retry_in_ms,
        }));
        const got = await tx.$queryRaw<{ step_id: string }[]>`
          UPDATE automation_steps s SET claimed_until = NULL, claimed_by = NULL, error = v.error, due_at = now() + make_interval(secs => v.ms / 1000.0), started_at = COALESCE(s.started_at, v.began_at)
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(step_id uuid, org_id uuid, attempts int, error text, ms float8, began_at timestamptz)
          WHERE s.step_id = v.step_id AND s.org_id = v.org_id AND s.status = 'pending' AND s.attempts = v.attempts
          RETURNING s.step_id::text`;
        for (const g of got) done.add(g.step_id);
      }
      if (finals.length) {
        const rows = finals.map(({ step, outcome }) => ({
          ...keyOf(step),
          status: outcome.status,
          result: 'result' in outcome && outcome.result !== undefined ? outcome.result : null,
          error: outcome.status === 'failed' ? outcome.error : outcome.status === 'skipped' ? outcome.reason : null,
        }));
        const got = await tx.$queryRaw<{ step_id: string }[]>`
          UPDATE automation_steps s SET status = v.status, result = v.result, error = v.error, claimed_until = NULL, claimed_by = NULL, finished_at = now(), started_at = COALESCE(s.started_at, v.began_at)
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(step_id uuid, org_id uuid, attempts int, status text, result jsonb, error text, began_at timestamptz)
          WHERE s.step_id = v.step_id AND s.org_id = v.org_id AND s.status = 'pending' AND s.attempts = v.attempts
          RETURNING s.step_id::text`;
        for (const g of got) done.add(g.step_id);
      }
      const mine = finals.filter((i) => done.has(i.step.step_id));
      const nexts = mine.flatMap(({ step, outcome }) =>
        outcome.status === 'completed' && outcome.next
          ? [
              {
                step_id: randomUUID(),
                run_id: step.run_id,
                org_id: step.org_id,
                action_id: outcome.next.action_id,
                action_type: outcome.next.action_type,
                delay_ms: outcome.next.delay_ms,
              },
            ]
          : [],
      );
      if (nexts.length) {
        await tx.$executeRaw`
          INSERT INTO automation_steps (step_id, run_id, org_id, action_id, action_type, due_at)
          SELECT v.step_id, v.run_id, v.org_id, v.action_id, v.action_type, now() + make_interval(secs => v.delay_ms / 1000.0)
          FROM jsonb_to_recordset(${JSON.stringify(nexts)}::jsonb) AS v(step_id uuid, run_id uuid, org_id uuid, action_id text, action_type text, delay_ms float8)
          ON CONFLICT (run_id, action_id) DO NOTHING`;
      }
      if (nexts.length || retries.some((r) => done.has(r.step.step_id))) await tx$notify(tx);
      const finishing = mine
        .filter(({ outcome }) => !(outcome.status === 'completed' && outcome.next))
        .map(({ step, outcome }) => ({
          run_id: step.run_id,
          org_id: step.org_id,
          status: outcome.status === 'failed' ? 'failed' : 'completed',
          reason: outcome.status === 'failed' ? outcome.error : outcome.status === 'skipped' ? outcome.reason : null,
        }));
      if (finishing.length) ended.push(...(await this.finish(tx, finishing)));
      return items.map((i) => done.has(i.step.step_id));
    }, TX_OPTIONS);
    for (const status of ended) this.metrics?.runsEnded(status);
    return recorded;
  }

  /** Ends runs (those still running) and writes their events, last; answers the statuses ended. */
  private async finish(tx: Tx, runs: { run_id: string; org_id: string; status: string; reason: string | null }[]): Promise<RunStatus[]> {
    const ended = await tx.$queryRaw<{ run_id: string; org_id: string }[]>`
      UPDATE automation_runs r SET status = v.status, reason = v.reason, finished_at = now()
      FROM jsonb_to_recordset(${JSON.stringify(runs)}::jsonb) AS v(run_id uuid, org_id uuid, status text, reason text)
      WHERE r.run_id = v.run_id AND r.org_id = v.org_id AND r.status = 'running'
      RETURNING r.run_id::text, r.org_id::text`;
    if (!ended.length) return [];
    const where = { OR: ended.map((e) => ({ org_id: e.org_id, run_id: e.run_id })) };
    const [rows, steps] = await Promise.all([
      tx.automationRun.findMany({ where }),
      tx.automationStep.findMany({ where, orderBy: [{ created_at: 'asc' }, { step_id: 'asc' }] }),
    ]);
    const stepsOf = new Map<string, StepRow[]>();
    for (const s of steps) stepsOf.set(s.run_id, [...(stepsOf.get(s.run_id) ?? []), s]);
    await writeEvents(
      tx,
      rows.map((run) => runEvent({ ...run, steps: stepsOf.get(run.run_id) ?? [] })),
    );
    return rows.map((r) => r.status as RunStatus);
  }

  /** Skips a claimed step whose run no longer runs (its workflow was deleted meanwhile). */
  async skip(step: ClaimedStep, why: string): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE automation_steps SET status = 'skipped', error = ${why}, claimed_until = NULL, claimed_by = NULL, finished_at = now()
      WHERE step_id = ${step.step_id}::uuid AND org_id = ${step.org_id}::uuid AND status = 'pending' AND attempts = ${step.attempts}`;
  }
}

const keyOf = (step: ClaimedStep) => ({
  step_id: step.step_id,
  org_id: step.org_id,
  attempts: step.attempts,
  began_at: step.began_at === undefined ? null : new Date(step.began_at).toISOString(),
});
const tx$notify = (tx: Tx) => tx.$executeRaw`SELECT pg_notify(${STEP_CHANNEL}, '')`;

/** The workflow.run.completed / failed event of a run that ended, with its steps. */
export function runEvent(run: RunRow & { steps: StepRow[] }): EventInput {
  const data: WorkflowRun = mapRun(run);
  return {
    type: run.status === 'failed' ? 'workflow.run.failed' : 'workflow.run.completed',
    org_id: run.org_id,
    phone_id: run.phone_id,
    data,
  };
}
