import type { GetIdMapRpc, RpcRequest, RpcResponse } from '@mapi/contracts';
import type { IdMapRepository } from '../../repositories/id-map-repository';
import type { ImportRunRepository } from '../../repositories/import-run-repository';
import { importNotFound } from '../get-import/get-import.usecase';

/**
 * GET /imports/{import_id}/id-map: of the ids this run's source brought into the organization, those
 * that could not be kept (a kept id maps to itself and is left out).
 */
export class GetIdMap {
  constructor(
    private readonly runs: ImportRunRepository,
    private readonly idMap: IdMapRepository,
  ) {}

  async execute({ ctx, params, query }: RpcRequest<typeof GetIdMapRpc>): Promise<RpcResponse<typeof GetIdMapRpc>> {
    const run = await this.runs.find(ctx.org_id, params.import_id);
    if (!run) throw importNotFound();
    return this.idMap.changedPage(ctx.org_id, `${run.source_url}#${run.source_org ?? ''}`, query.offset, query.limit);
  }
}
