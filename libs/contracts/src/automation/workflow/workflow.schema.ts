import { z } from 'zod';
import { definitionIssues, type WorkflowDefinition } from './definition';

const actionId = z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(200, 'is at most 200 characters');

/** An action of the graph (`NormalWorkflowActions | SplitPathActions`): its metadata is checked by its type (definitionIssues). */
export const WorkflowActionSchema = z.object({
  id: actionId,
  action_metadata: z.object({
    type: z.string({ error: 'type must be a string' }).min(1).max(100),
    metadata: z.record(z.string(), z.unknown(), { error: 'metadata must be an object' }).optional(),
  }),
  next: actionId.or(z.literal('')).nullable().optional(),
});
export type WorkflowAction = z.infer<typeof WorkflowActionSchema>;

export const TriggerMetadataSchema = z.object({
  /** Phones (org_phone numbers or phone_ids) whose events fire it; empty or absent: every phone. */
  org_phones: z.array(z.string().min(1).max(100)).max(1_000).optional(),
  /** Message triggers: also messages this organization sent itself (from_me); default false (loop guard). */
  allow_internal_messages: z.boolean().optional(),
  first_action_id: actionId.nullable(),
});

export const WorkflowNameSchema = z
  .string({ error: 'name must be a string' })
  .trim()
  .min(1, 'name must not be empty')
  .max(200, 'name is at most 200 characters');
export const MAX_ACTIONS = 100;

/** The defining fields: those of `WorkflowType` (@periskope/types) that say what it does. */
export const WorkflowDefinitionFields = {
  trigger: z.string({ error: 'trigger must be a string' }).min(1).max(100),
  trigger_metadata: TriggerMetadataSchema,
  actions: z.array(WorkflowActionSchema, { error: 'actions must be an array' }).max(MAX_ACTIONS, `at most ${MAX_ACTIONS} actions`),
};

/** Adds definitionIssues to a zod context, each at its own path (`body.actions.2.next`, …). */
export function refineDefinition(def: WorkflowDefinition, ctx: z.core.$RefinementCtx): void {
  for (const issue of definitionIssues(def)) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
}

/** The workflow as answered: the `tbl_org_workflows` row (`WorkflowType`). */
export const WorkflowSchema = z.object({
  id: z.uuid(),
  org_id: z.uuid(),
  name: z.string(),
  trigger: z.string(),
  trigger_metadata: z.object({
    org_phones: z.array(z.string()),
    allow_internal_messages: z.boolean(),
    first_action_id: z.string().nullable(),
  }),
  actions: z.array(WorkflowActionSchema),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  updated_by: z.string(),
  deleted_at: z.string().nullable(),
});
export type Workflow = z.infer<typeof WorkflowSchema>;

export const WorkflowIdParams = z.object({ workflow_id: z.uuid({ error: 'workflow_id must be a UUID' }) });
export const RunIdParams = z.object({ run_id: z.uuid({ error: 'run_id must be a UUID' }) });

export const STEP_STATUSES = ['pending', 'completed', 'failed', 'skipped'] as const;
export const RUN_STATUSES = ['running', 'completed', 'failed', 'skipped'] as const;

/** One action of a run: its outcome and timing. */
export const WorkflowStepSchema = z.object({
  step_id: z.uuid(),
  action_id: z.string(),
  action_type: z.string(),
  status: z.enum(STEP_STATUSES),
  due_at: z.string(),
  attempts: z.number().int(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  result: z.unknown().nullable(),
  error: z.string().nullable(),
});
export type WorkflowStep = z.infer<typeof WorkflowStepSchema>;

/** One run of a workflow for one event; also the data of workflow.run.completed / workflow.run.failed. */
export const WorkflowRunSchema = z.object({
  run_id: z.uuid(),
  workflow_id: z.uuid(),
  org_id: z.uuid(),
  event_id: z.uuid(),
  event_type: z.string(),
  phone_id: z.string().nullable(),
  chat_id: z.string().nullable(),
  status: z.enum(RUN_STATUSES),
  reason: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  steps: z.array(WorkflowStepSchema),
});
export type WorkflowRun = z.infer<typeof WorkflowRunSchema>;
