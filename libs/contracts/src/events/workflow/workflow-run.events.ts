import { WorkflowRunSchema } from '../../automation/workflow/workflow.schema';
import { defineEvent } from '../define-event';

export const WorkflowRunCompletedEvent = defineEvent({
  name: 'workflow.run.completed',
  subject: 'events.v1.workflow.run.completed',
  summary: 'A workflow run ended with every action it reached done (emitted by the automation service); data is the run with its steps.',
  data: WorkflowRunSchema,
});

export const WorkflowRunFailedEvent = defineEvent({
  name: 'workflow.run.failed',
  subject: 'events.v1.workflow.run.failed',
  summary: 'A workflow run ended with an action that failed for good (its error in the step); data is the run with its steps.',
  data: WorkflowRunSchema,
});
