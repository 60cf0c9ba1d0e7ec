import { z } from 'zod';
import { importBatchRpc } from '../../imports/import-batch';

/**
 * Internal (the importer, docs/services/imports.md): workflows as GET /workflows answers them (or
 * `tbl_org_workflows` rows), each with `source_id`. Checked as POST /workflows/create checks a
 * definition; imported switched off (is_active false) so both systems do not act twice.
 */
export const ImportWorkflowsRpc = importBatchRpc('automation.v1.import.workflows', 'automation');
export type ImportWorkflowsRequest = z.infer<typeof ImportWorkflowsRpc.request>;
