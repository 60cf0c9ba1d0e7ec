import type { DeleteWorkflowRequest } from '@mapi/contracts';
import { workflowNotFound } from '../../not-found';
import type { WorkflowRepository } from '../../repositories/workflow-repository';

/** DELETE /workflows/{workflow_id}: it starts no more runs; steps of its runs not yet done are skipped. */
export class DeleteWorkflow {
  constructor(private readonly workflows: WorkflowRepository) {}

  async execute({ ctx, params }: DeleteWorkflowRequest): Promise<null> {
    if (!(await this.workflows.softDelete(ctx.org_id, params.workflow_id, ctx.token_id))) throw workflowNotFound();
    return null;
  }
}
