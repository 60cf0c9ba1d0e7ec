import type { GetWorkflowRequest, Workflow } from '@mapi/contracts';
import { mapWorkflow } from '../../map-workflow';
import { workflowNotFound } from '../../not-found';
import type { WorkflowRepository } from '../../repositories/workflow-repository';

/** GET /workflows/{workflow_id}. */
export class GetWorkflow {
  constructor(private readonly workflows: WorkflowRepository) {}

  async execute({ ctx, params }: GetWorkflowRequest): Promise<Workflow> {
    const row = await this.workflows.find(ctx.org_id, params.workflow_id);
    if (!row) throw workflowNotFound();
    return mapWorkflow(row);
  }
}
