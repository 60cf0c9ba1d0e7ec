import { pagePositions, type ListWorkflowsRequest, type ListWorkflowsResponse } from '@mapi/contracts';
import { mapWorkflow } from '../../map-workflow';
import type { WorkflowRepository } from '../../repositories/workflow-repository';

/** GET /workflows: newest first, paged as spec 4.1. */
export class ListWorkflows {
  constructor(private readonly workflows: WorkflowRepository) {}

  async execute({ ctx, query }: ListWorkflowsRequest): Promise<ListWorkflowsResponse> {
    const rows = await this.workflows.list(ctx.org_id, query.offset, query.limit);
    return { ...pagePositions(query.offset, rows.length), workflows: rows.map(mapWorkflow) };
  }
}
