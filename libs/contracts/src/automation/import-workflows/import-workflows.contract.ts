import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { ImportBatchResponse, MAX_IMPORT_BATCH } from '../../imports/import-batch';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * Internal (the importer, docs/services/imports.md): workflows as GET /workflows answers them (or
 * `tbl_org_workflows` rows), each with `source_id`. Checked as POST /workflows/create checks a
 * definition; imported switched off (is_active false) so both systems do not act twice.
 */
export const ImportWorkflowsRpc = defineRpc({
  subject: 'automation.v1.import.workflows',
  service: 'automation',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ items: z.array(z.unknown()).max(MAX_IMPORT_BATCH) }) }),
  response: ImportBatchResponse,
});
export type ImportWorkflowsRequest = z.infer<typeof ImportWorkflowsRpc.request>;
