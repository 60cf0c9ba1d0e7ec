import { ServiceError, UpdateWebhookRpc, UpdateWorkflowRpc, type CutoverRequest, type CutoverResponse } from '@mapi/contracts';
import type { NatsRpcClient } from '@mapi/platform';
import type { IdMapRepository } from '../../repositories/id-map-repository';
import type { ImportRunRepository } from '../../repositories/import-run-repository';
import { importNotFound } from '../get-import/get-import.usecase';

/**
 * POST /imports/{import_id}/cutover: the webhooks and workflows this import's source had on are
 * switched on here, each through its owner's public update (so its rules and events hold), in the
 * caller's name. Each one switched on is marked, so a repeat does nothing more.
 */
export class Cutover {
  constructor(
    private readonly runs: ImportRunRepository,
    private readonly idMap: IdMapRepository,
    private readonly rpc: NatsRpcClient,
  ) {}

  async execute({ ctx, params }: CutoverRequest): Promise<CutoverResponse> {
    const run = await this.runs.find(ctx.org_id, params.import_id);
    if (!run) throw importNotFound();
    const source = `${run.source_url}#${run.source_org ?? ''}`;
    const answer: CutoverResponse = { switched_on: { webhooks: 0, workflows: 0 }, failed: [] };
    for (const row of await this.idMap.toSwitchOn(ctx.org_id, source)) {
      try {
        if (row.resource === 'webhooks')
          await this.rpc.call(UpdateWebhookRpc, { ctx, params: { id: row.target_id }, body: { isSubscribed: true } });
        else if (row.resource === 'workflows')
          await this.rpc.call(UpdateWorkflowRpc, { ctx, params: { workflow_id: row.target_id }, body: { is_active: true } });
        else continue;
        await this.idMap.switchedOn(ctx.org_id, source, row.resource, row.source_id);
        answer.switched_on[row.resource]++;
      } catch (error) {
        answer.failed.push({
          resource: row.resource,
          id: row.target_id,
          reason: error instanceof ServiceError ? error.message : 'the owning service did not answer; repeat the cut-over',
        });
      }
    }
    return answer;
  }
}
