import type { WorkflowRun, WorkflowStep } from '@mapi/contracts';
import type { RunWithSteps, StepRow } from './repositories/run-repository';

export function mapStep(s: StepRow): WorkflowStep {
  return {
    step_id: s.step_id,
    action_id: s.action_id,
    action_type: s.action_type,
    status: s.status as WorkflowStep['status'],
    due_at: s.due_at.toISOString(),
    attempts: s.attempts,
    started_at: s.started_at?.toISOString() ?? null,
    finished_at: s.finished_at?.toISOString() ?? null,
    duration_ms: s.started_at && s.finished_at ? s.finished_at.getTime() - s.started_at.getTime() : null,
    result: s.result ?? null,
    error: s.error,
  };
}

/** A run and its steps as the run log (and the workflow.run.* events) show it. */
export function mapRun(r: RunWithSteps): WorkflowRun {
  return {
    run_id: r.run_id,
    workflow_id: r.workflow_id,
    org_id: r.org_id,
    event_id: r.event_id,
    event_type: r.event_type,
    phone_id: r.phone_id,
    chat_id: r.chat_id,
    status: r.status as WorkflowRun['status'],
    reason: r.reason,
    started_at: r.started_at.toISOString(),
    finished_at: r.finished_at?.toISOString() ?? null,
    steps: r.steps.map(mapStep),
  };
}
