import { randomUUID } from 'node:crypto';
import type { Workflow } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { writeEvents } from '@mapi/events';
import type { ClaimedStep } from './run-store';
import { STEP_CHANNEL, runEvent } from './run-store';

type Tx = Prisma.TransactionClient;

/** A run to start: the workflow and the event (the limits decide later, in the same transaction, whether it is skipped). */
export interface RunStart {
  run_id: string;
  workflow: Pick<Workflow, 'id' | 'org_id' | 'trigger' | 'trigger_metadata' | 'actions'>;
  event: { event_id: string; event_type: string; phone_id: string | null; chat_id: string | null; raw: Prisma.InputJsonValue };
}

/** First steps claimed in the intake's transaction for the local executor (its worker id, a lease), run by it once committed. */
export interface HandoffClaim {
  owner: string;
  room: number;
  leaseMs: number;
}

/** The local executor, to which the intake hands the first steps it writes (StepExecutor). */
export interface FirstStepTaker {
  /** The worker id to claim for and how many steps it takes now; null: nothing (no liveness lock, full, stopping). */
  offer(): HandoffClaim | null;
  /** Runs first steps claimed for it in a committed intake transaction. */
  take(steps: ClaimedStep[]): void;
}

/** What insertStarts wrote: the runs that are new (in the order given), and their first steps. */
export interface Inserted {
  runs: RunStart[];
  steps: (ClaimedStep & { claimed: boolean })[];
}

/**
 * Writes the runs and each one's first step (due now) in the caller's transaction, in one statement:
 * a run with no first action is written completed. `ON CONFLICT DO NOTHING` on the unique
 * (workflow_id, event_id) (the run id is derived from it): a pair that already has a run — a
 * redelivery, or another intake writing the same event at this moment (it waits for that one's
 * commit) — is left as it is and gets no step. Rows go in run-id order, so two intakes writing the
 * same events never wait on each other crosswise (no deadlock). With `handoff`, up to `room` first
 * steps are written already claimed (owner, lease, attempts 1): the local executor runs them after
 * the commit; if it dies first, its liveness lock goes with it and another executor takes them over.
 */
export async function insertStarts(tx: Tx, starts: RunStart[], handoff: HandoffClaim | null): Promise<Inserted> {
  if (!starts.length) return { runs: [], steps: [] };
  const now = new Date().toISOString();
  const runs = starts.map((s) => {
    const first = !!s.workflow.trigger_metadata.first_action_id;
    return {
      run_id: s.run_id,
      org_id: s.workflow.org_id,
      workflow_id: s.workflow.id,
      event_id: s.event.event_id,
      event_type: s.event.event_type,
      phone_id: s.event.phone_id,
      chat_id: s.event.chat_id,
      event: s.event.raw,
      definition: { trigger: s.workflow.trigger, trigger_metadata: s.workflow.trigger_metadata, actions: s.workflow.actions },
      status: first ? 'running' : 'completed',
      started_at: now,
      finished_at: first ? null : now,
    };
  });
  let room = handoff?.room ?? 0;
  const owner = handoff?.owner ?? null;
  const steps = starts.flatMap((s) => {
    const first = s.workflow.trigger_metadata.first_action_id;
    const action = first ? s.workflow.actions.find((a) => a.id === first) : undefined;
    if (!action) return [];
    const claimed = room-- > 0;
    return [
      {
        step_id: randomUUID(),
        run_id: s.run_id,
        org_id: s.workflow.org_id,
        action_id: action.id,
        action_type: action.action_metadata.type,
        claimed_by: claimed ? owner : null,
      },
    ];
  });
  const written = await tx.$queryRaw<{ run_id: string }[]>`
    WITH runs AS (
      INSERT INTO automation_runs (run_id, org_id, workflow_id, event_id, event_type, phone_id, chat_id, event, definition, status, started_at, finished_at)
      SELECT v.run_id, v.org_id, v.workflow_id, v.event_id, v.event_type, v.phone_id, v.chat_id, v.event, v.definition, v.status, v.started_at, v.finished_at
      FROM jsonb_to_recordset(${JSON.stringify(runs)}::jsonb) AS v(run_id uuid, org_id uuid, workflow_id uuid, event_id uuid, event_type text, phone_id text, chat_id text,
        event jsonb, definition jsonb, status text, started_at timestamptz, finished_at timestamptz)
      ORDER BY v.run_id
      ON CONFLICT DO NOTHING
      RETURNING run_id),
    steps AS (
      INSERT INTO automation_steps (step_id, run_id, org_id, action_id, action_type, due_at, claimed_by, claimed_until, attempts)
      SELECT v.step_id, v.run_id, v.org_id, v.action_id, v.action_type, ${now}::timestamptz, v.claimed_by,
        CASE WHEN v.claimed_by IS NULL THEN NULL ELSE clock_timestamp() + make_interval(secs => ${(handoff?.leaseMs ?? 0) / 1000}::float8) END,
        CASE WHEN v.claimed_by IS NULL THEN 0 ELSE 1 END
      FROM jsonb_to_recordset(${JSON.stringify(steps)}::jsonb) AS v(step_id uuid, run_id uuid, org_id uuid, action_id text, action_type text, claimed_by uuid)
      JOIN runs ON runs.run_id = v.run_id
      RETURNING 1)
    SELECT run_id::text FROM runs`;
  const isNew = new Set(written.map((w) => w.run_id));
  return {
    runs: starts.filter((s) => isNew.has(s.run_id)),
    steps: steps
      .filter((s) => isNew.has(s.run_id))
      .map((s) => ({
        step_id: s.step_id,
        run_id: s.run_id,
        org_id: s.org_id,
        action_id: s.action_id,
        action_type: s.action_type,
        attempts: s.claimed_by ? 1 : 0,
        claimed: !!s.claimed_by,
      })),
  };
}

/** Marks runs written by insertStarts in this transaction as skipped (over a limit, with the reason) and removes their first steps: recorded, never run. */
export async function skipStarted(tx: Tx, skipped: { run_id: string; org_id: string; reason: string }[]): Promise<void> {
  if (!skipped.length) return;
  const rows = JSON.stringify(skipped);
  await tx.$executeRaw`
    UPDATE automation_runs r SET status = 'skipped', reason = v.reason, finished_at = r.started_at
    FROM jsonb_to_recordset(${rows}::jsonb) AS v(run_id uuid, org_id uuid, reason text)
    WHERE r.run_id = v.run_id AND r.org_id = v.org_id`;
  await tx.$executeRaw`
    DELETE FROM automation_steps s USING jsonb_to_recordset(${rows}::jsonb) AS v(run_id uuid, org_id uuid)
    WHERE s.run_id = v.run_id AND s.org_id = v.org_id`;
}

/** After the limits: wakes the executors when a first step was written (pg_notify at commit), and writes the events of runs that completed at once (no action), last. */
export async function finishStarts(tx: Tx, completed: { run_id: string; org_id: string }[], anySteps: boolean): Promise<void> {
  if (anySteps) await tx.$executeRaw`SELECT pg_notify(${STEP_CHANNEL}, '')`;
  if (!completed.length) return;
  const rows = await tx.automationRun.findMany({ where: { OR: completed.map((c) => ({ org_id: c.org_id, run_id: c.run_id })) } });
  await writeEvents(
    tx,
    rows.map((run) => runEvent({ ...run, steps: [] })),
  );
}
