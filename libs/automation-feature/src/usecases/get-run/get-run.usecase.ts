import type { GetRunRequest, WorkflowRun } from '@mapi/contracts';
import { mapRun } from '../../map-run';
import { runNotFound } from '../../not-found';
import type { RunRepository } from '../../repositories/run-repository';

/** GET /workflows/runs/{run_id}: one run with each action's outcome and timing. */
export class GetRun {
  constructor(private readonly runs: RunRepository) {}

  async execute({ ctx, params }: GetRunRequest): Promise<WorkflowRun> {
    const row = await this.runs.find(ctx.org_id, params.run_id);
    if (!row) throw runNotFound();
    return mapRun(row);
  }
}
