import type { ListImportFailuresRpc, RpcRequest, RpcResponse } from '@mapi/contracts';
import type { FailureRepository } from '../../repositories/failure-repository';
import type { ImportRunRepository } from '../../repositories/import-run-repository';
import { importNotFound } from '../get-import/get-import.usecase';

/** GET /imports/{import_id}/failures: the records this run could not bring, with why. */
export class ListImportFailures {
  constructor(
    private readonly runs: ImportRunRepository,
    private readonly failures: FailureRepository,
  ) {}

  async execute({ ctx, params, query }: RpcRequest<typeof ListImportFailuresRpc>): Promise<RpcResponse<typeof ListImportFailuresRpc>> {
    if (!(await this.runs.find(ctx.org_id, params.import_id))) throw importNotFound();
    const { count, failures } = await this.failures.page(ctx.org_id, params.import_id, query.offset, query.limit);
    return {
      count,
      failures: failures.map((f) => ({ resource: f.resource, source_id: f.source_id, reason: f.reason, at: f.at.toISOString() })),
    };
  }
}
