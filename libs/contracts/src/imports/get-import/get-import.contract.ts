import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ImportIdParams, ImportSchema } from '../import/import.schema';

export const GetImportRpc = defineRpc({
  subject: 'imports.v1.get',
  service: 'importer',
  request: z.object({ ctx: RequestContextSchema, params: ImportIdParams }),
  response: ImportSchema,
});
export type GetImportRequest = z.infer<typeof GetImportRpc.request>;

export const GetImportRoute = defineRoute({
  operationId: 'getImport',
  method: 'GET',
  path: '/imports/{import_id}',
  tag: 'imports',
  summary: 'Get an import run',
  description: "Its status, progress and report (per resource: read, created, updated, skipped, failed). Another organization's is 404.",
  params: ImportIdParams,
  phone: 'none',
  role: 'owner',
  rpc: GetImportRpc,
  successStatus: 200,
  response: ImportSchema,
});
