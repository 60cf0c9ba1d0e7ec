import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { pageFields } from '../../chats/paging/paging';
import { ImportIdParams } from '../import/import.schema';

export const IdMapEntrySchema = z.object({ resource: z.string(), source_id: z.string(), target_id: z.string() });

export const GetIdMapResponse = z.object({
  count: z.number().int(),
  entries: z.array(IdMapEntrySchema),
});

export const GetIdMapRpc = defineRpc({
  subject: 'imports.v1.id-map',
  service: 'importer',
  request: z.object({ ctx: RequestContextSchema, params: ImportIdParams, query: z.object(pageFields) }),
  response: GetIdMapResponse,
});

export const GetIdMapRoute = defineRoute({
  operationId: 'getImportIdMap',
  method: 'GET',
  path: '/imports/{import_id}/id-map',
  tag: 'imports',
  summary: 'The ids an import could not keep',
  description:
    "Source id → id here, for every record of this import's source whose id was taken here (ids kept as they were are not " +
    'listed). Paged with offset and limit (default and most 2000).',
  params: ImportIdParams,
  query: z.object(pageFields),
  phone: 'none',
  role: 'owner',
  rpc: GetIdMapRpc,
  successStatus: 200,
  response: GetIdMapResponse,
});
