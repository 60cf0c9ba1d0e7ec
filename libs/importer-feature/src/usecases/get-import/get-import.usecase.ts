import { ErrorCode, ServiceError, type GetImportRequest, type Import } from '@mapi/contracts';
import { mapImport } from '../../map-import';
import type { ImportRunRepository } from '../../repositories/import-run-repository';

export const importNotFound = () => new ServiceError(ErrorCode.NOT_FOUND_ERROR, 404, 'Import not found');

/** GET /imports/{import_id}: the run of the caller's organization; another organization's is 404. */
export class GetImport {
  constructor(private readonly runs: ImportRunRepository) {}

  async execute({ ctx, params }: GetImportRequest): Promise<Import> {
    const row = await this.runs.find(ctx.org_id, params.import_id);
    if (!row) throw importNotFound();
    return mapImport(row);
  }
}
