import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { pageFields } from '../../chats/paging/paging';
import { ImportIdParams } from '../import/import.schema';

export const ImportFailureSchema = z.object({ resource: z.string(), source_id: z.string(), reason: z.string(), at: z.string() });

export const ListImportFailuresResponse = z.object({ count: z.number().int(), failures: z.array(ImportFailureSchema) });

export const ListImportFailuresRpc = defineRpc({
  subject: 'imports.v1.failures',
  service: 'importer',
  request: z.object({ ctx: RequestContextSchema, params: ImportIdParams, query: z.object(pageFields) }),
  response: ListImportFailuresResponse,
});

export const ListImportFailuresRoute = defineRoute({
  operationId: 'listImportFailures',
  method: 'GET',
  path: '/imports/{import_id}/failures',
  tag: 'imports',
  summary: 'The records an import could not bring',
  description: 'Each with its resource, its id at the source and why. Paged with offset and limit (default and most 2000).',
  params: ImportIdParams,
  query: z.object(pageFields),
  phone: 'none',
  role: 'owner',
  rpc: ListImportFailuresRpc,
  successStatus: 200,
  response: ListImportFailuresResponse,
});
