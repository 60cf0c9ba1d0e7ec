import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { WorkflowIdParams } from '../workflow/workflow.schema';

export const DryRunWorkflowBody = z.object({
  /** A sample of the trigger's event: its object as `data` (a message.created's is the spec 2.1 message). */
  event: z.object({
    data: z.record(z.string(), z.unknown(), { error: "event.data must be the event's object" }),
    phone_id: z.string().max(100).nullable().optional(),
    /** The chat as it would be read at the condition (its labels, custom properties, …), for conditions on chat fields the event does not carry. */
    chat: z.record(z.string(), z.unknown()).optional(),
    previous_attributes: z.record(z.string(), z.unknown()).nullable().optional(),
    /** When the event happened (time and day conditions read it); default now. */
    created_at: z.iso.datetime({ offset: true, error: 'event.created_at must be an ISO 8601 date-time' }).optional(),
  }),
});

export const DryRunOutcomeSchema = z.enum([
  'would_run',
  'would_wait',
  'condition_passed',
  'condition_failed',
  'path_taken',
  'path_not_taken',
]);

export const DryRunWorkflowResponse = z.object({
  /** Whether the event would start a run (the trigger's phones and the loop guard admit it). */
  triggered: z.boolean(),
  /** Why it would not, when it would not. */
  reason: z.string().nullable(),
  /** The actions the walk reaches, in order, each with what would happen. */
  actions: z.array(z.object({ action_id: z.string(), type: z.string(), outcome: DryRunOutcomeSchema })),
});
export type DryRunWorkflowResponse = z.infer<typeof DryRunWorkflowResponse>;

export const DryRunWorkflowRpc = defineRpc({
  subject: 'automation.v1.workflows.dry-run',
  service: 'automation',
  request: z.object({ ctx: RequestContextSchema, params: WorkflowIdParams, body: DryRunWorkflowBody }),
  response: DryRunWorkflowResponse,
});
export type DryRunWorkflowRequest = z.infer<typeof DryRunWorkflowRpc.request>;

export const DryRunWorkflowRoute = defineRoute({
  operationId: 'dryRunWorkflow',
  method: 'POST',
  path: '/workflows/{workflow_id}/dry-run',
  tag: 'workflows',
  summary: 'Evaluate a workflow against a sample event, running nothing',
  description:
    "Walks the graph as a run would for this event of the workflow's trigger: conditions and split paths are evaluated, " +
    'and each action reached is listed with what would happen; nothing is sent, written or scheduled. Enabled or not.',
  params: WorkflowIdParams,
  body: DryRunWorkflowBody,
  phone: 'none',
  role: 'admin',
  rpc: DryRunWorkflowRpc,
  successStatus: 200,
  response: DryRunWorkflowResponse,
});
