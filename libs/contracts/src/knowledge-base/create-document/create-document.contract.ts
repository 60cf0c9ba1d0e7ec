import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { FileInputSchema } from '../entry/attachment-input.schema';

export const CreateDocumentBody = z.object({
  /** The file: PDF, DOCX, Markdown or plain text, by `url`, inline (`base64` / `file`), or as the file part of a multipart request. */
  document: FileInputSchema,
  /** Whether the chunks are used by the agent; default false, like FAQs. */
  is_active: z.boolean({ error: 'is_active must be a boolean' }).default(false),
});
export type CreateDocumentBody = z.infer<typeof CreateDocumentBody>;

/** One element per file (wider API): the outcome of extracting and chunking it. */
export const CreateDocumentResult = z.object({
  file_name: z.string(),
  status: z.enum(['success', 'failed']),
  reason: z.string().nullable(),
  document_id: z.uuid().optional(),
  file_path: z.string().optional(),
  chunks_count: z.number().int().optional(),
});
export const CreateDocumentResponse = z.array(CreateDocumentResult);
export type CreateDocumentResponse = z.infer<typeof CreateDocumentResponse>;

export const CreateDocumentRpc = defineRpc({
  subject: 'knowledge-base.v1.document.create',
  service: 'knowledge-base',
  request: z.object({ ctx: RequestContextSchema, body: CreateDocumentBody }),
  response: CreateDocumentResponse,
});
export type CreateDocumentRequest = z.infer<typeof CreateDocumentRpc.request>;

export const CreateDocumentRoute = defineRoute({
  operationId: 'createDocument',
  method: 'POST',
  path: '/knowledge-base/document/create',
  tag: 'knowledge-base',
  summary: 'Add a document: its text is extracted and split into chunks, each an entry of type document',
  description:
    'JSON body `{ document: { filename, url | base64 | file, mimetype? }, is_active? }`, or multipart/form-data with the file ' +
    'in the part `document` (or `file`), optional text parts `document.filename`, `document.mimetype`, `is_active`. ' +
    'PDF, DOCX, Markdown, plain text. An unsupported or unreadable file is a 422; a file over KB_DOCUMENT_MAX_BYTES a 413.',
  body: CreateDocumentBody,
  phone: 'none',
  rpc: CreateDocumentRpc,
  successStatus: 200,
  response: CreateDocumentResponse,
  upload: { fileField: 'document', booleanFields: ['is_active'], timeoutMs: 60_000 },
});
