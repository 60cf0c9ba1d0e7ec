import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { DocumentIdParams, KbEntrySchema } from '../entry/kb-entry.schema';

export const GetDocumentResponse = z.object({
  document_id: z.uuid(),
  file_name: z.string(),
  file_path: z.string(),
  /** Number of chunks. */
  count: z.number().int(),
  /** The chunks (entries of type document), in document order. */
  data: z.array(KbEntrySchema),
});
export type GetDocumentResponse = z.infer<typeof GetDocumentResponse>;

export const GetDocumentRpc = defineRpc({
  subject: 'knowledge-base.v1.document.get',
  service: 'knowledge-base',
  request: z.object({ ctx: RequestContextSchema, params: DocumentIdParams }),
  response: GetDocumentResponse,
});
export type GetDocumentRequest = z.infer<typeof GetDocumentRpc.request>;

export const GetDocumentRoute = defineRoute({
  operationId: 'getDocument',
  method: 'GET',
  path: '/knowledge-base/document/{document_id}',
  tag: 'knowledge-base',
  summary: 'Get a document and its chunks',
  params: DocumentIdParams,
  phone: 'none',
  rpc: GetDocumentRpc,
  successStatus: 200,
  response: GetDocumentResponse,
});
