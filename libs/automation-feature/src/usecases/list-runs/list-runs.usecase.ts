import { pagePositions, type ListRunsRequest, type ListRunsResponse } from '@mapi/contracts';
import { mapRun } from '../../map-run';
import { workflowNotFound } from '../../not-found';
import type { RunRepository } from '../../repositories/run-repository';
import type { WorkflowRepository } from '../../repositories/workflow-repository';

/** GET /workflows/{workflow_id}/runs: the run log, newest first. */
export class ListRuns {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly runs: RunRepository,
  ) {}

  async execute({ ctx, params, query }: ListRunsRequest): Promise<ListRunsResponse> {
    if (!(await this.workflows.find(ctx.org_id, params.workflow_id))) throw workflowNotFound();
    const rows = await this.runs.list(ctx.org_id, params.workflow_id, query.status, query.offset, query.limit, query.first_condition);
    return { ...pagePositions(query.offset, rows.length), runs: rows.map(mapRun) };
  }
}
