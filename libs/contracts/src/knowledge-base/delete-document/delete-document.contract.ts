import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { DocumentIdParams } from '../entry/kb-entry.schema';

export const DeleteDocumentResponse = z.object({ document_id: z.uuid(), deleted_count: z.number().int() });
export type DeleteDocumentResponse = z.infer<typeof DeleteDocumentResponse>;

export const DeleteDocumentRpc = defineRpc({
  subject: 'knowledge-base.v1.document.delete',
  service: 'knowledge-base',
  request: z.object({ ctx: RequestContextSchema, params: DocumentIdParams }),
  response: DeleteDocumentResponse,
});
export type DeleteDocumentRequest = z.infer<typeof DeleteDocumentRpc.request>;

export const DeleteDocumentRoute = defineRoute({
  operationId: 'deleteDocument',
  method: 'DELETE',
  path: '/knowledge-base/document/{document_id}',
  tag: 'knowledge-base',
  summary: 'Delete a document: every one of its chunks, permanently',
  params: DocumentIdParams,
  phone: 'none',
  rpc: DeleteDocumentRpc,
  successStatus: 200,
  response: DeleteDocumentResponse,
});
