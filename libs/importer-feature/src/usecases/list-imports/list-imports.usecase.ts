import type { ListImportsRpc, RpcRequest, RpcResponse } from '@mapi/contracts';
import { mapImport } from '../../map-import';
import type { ImportRunRepository } from '../../repositories/import-run-repository';

/** GET /imports: the organization's last 50 runs, newest first. */
export class ListImports {
  constructor(private readonly runs: ImportRunRepository) {}

  async execute({ ctx }: RpcRequest<typeof ListImportsRpc>): Promise<RpcResponse<typeof ListImportsRpc>> {
    const now = new Date();
    return { imports: (await this.runs.list(ctx.org_id, 50)).map((r) => mapImport(r, now)) };
  }
}
