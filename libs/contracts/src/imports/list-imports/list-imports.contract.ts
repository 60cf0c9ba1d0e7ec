import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { ImportSchema } from '../import/import.schema';

export const ListImportsResponse = z.object({ imports: z.array(ImportSchema) });

export const ListImportsRpc = defineRpc({
  subject: 'imports.v1.list',
  service: 'importer',
  request: z.object({ ctx: RequestContextSchema }),
  response: ListImportsResponse,
});

export const ListImportsRoute = defineRoute({
  operationId: 'listImports',
  method: 'GET',
  path: '/imports',
  tag: 'imports',
  summary: 'List import runs',
  description: "The organization's last 50 import runs, newest first.",
  phone: 'none',
  role: 'owner',
  rpc: ListImportsRpc,
  successStatus: 200,
  response: ListImportsResponse,
});
