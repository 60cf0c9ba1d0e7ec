import { randomUUID } from 'node:crypto';
import { Errors, type CreateDocumentRequest, type CreateDocumentResponse, type KbDocumentMetadata } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import type { AttachmentStore } from '../../attachments/attachment-store';
import { decodeInlineFile, fetchFile, type FetchOptions, type InlineFile } from '../../attachments/file-input';
import { chunkText } from '../../documents/chunk-text';
import { documentKind, extractText } from '../../documents/extract-text';
import type { KbEntryRepository } from '../../repositories/kb-entry-repository';
import { CHUNKS_PER_JOB, documentJobId, type EmbeddingScheduler } from '../embedding-scheduler';

export interface DocumentLimits extends FetchOptions {
  maxChunks: number;
}

/**
 * POST /knowledge-base/document/create: reads the file (url, base64, data URL, or a multipart upload the
 * gateway passed on as base64), stores it in the media storage, extracts its text
 * (PDF, DOCX, Markdown, text), splits it into chunks and stores each as an entry of type document
 * under one document_id; embeddings are enqueued (not awaited: a document may have thousands).
 */
export class CreateDocument {
  constructor(
    private readonly entries: KbEntryRepository,
    private readonly store: AttachmentStore,
    private readonly embeddings: EmbeddingScheduler,
    private readonly limits: DocumentLimits,
    private readonly logger: Logger,
  ) {}

  async execute({ ctx, body }: CreateDocumentRequest): Promise<CreateDocumentResponse> {
    const input = body.document;
    const file: InlineFile =
      input.url !== undefined
        ? await fetchFile(input.url, 'document', this.limits)
        : decodeInlineFile(input, 'document', this.limits.maxBytes);
    const kind = documentKind(input.filename, file.mimetype);
    if (!kind) {
      throw Errors.validation({
        'body.document.filename': { message: `unsupported document type (${file.mimetype}); PDF, DOCX, Markdown or plain text` },
      });
    }
    const chunks = chunkText(await extractText(kind, file.bytes));
    if (chunks.length > this.limits.maxChunks) {
      throw Errors.validation({
        'body.document': { message: `the document makes ${chunks.length} chunks; at most ${this.limits.maxChunks}` },
      });
    }
    const documentId = randomUUID();
    const link = await this.store.put('document', ctx.org_id, input.filename, file.bytes, file.mimetype, documentId);
    const rows = await this.entries.insertMany(
      ctx.org_id,
      chunks.map((c, chunkIndex) => {
        const metadata: KbDocumentMetadata = {
          fileName: link.name,
          filePath: link.url,
          chunkIndex,
          tokenCount: c.tokenCount,
          source: c.source,
        };
        return {
          type: 'document' as const,
          question: c.question,
          answer: c.answer,
          is_active: body.is_active,
          attachments: null,
          document_id: documentId,
          metadata,
        };
      }),
    );
    try {
      for (let i = 0; i < rows.length; i += CHUNKS_PER_JOB) {
        await this.embeddings.enqueue(
          ctx.org_id,
          rows.slice(i, i + CHUNKS_PER_JOB).map((r) => r.context_id),
          documentJobId(documentId, i / CHUNKS_PER_JOB),
        );
      }
    } catch (error) {
      this.logger.error({ err: error, document_id: documentId }, 'embedding queue unavailable; document not created');
      await this.entries.deleteDocument(ctx.org_id, documentId);
      await this.store.removeLinks(ctx.org_id, [link]);
      throw Errors.unavailable('The embedding queue is unavailable; the document was not created');
    }
    return [
      { file_name: link.name, status: 'success', reason: null, document_id: documentId, file_path: link.url, chunks_count: rows.length },
    ];
  }
}
