import { Errors, type DeleteDocumentRequest, type DeleteDocumentResponse } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import type { AttachmentStore } from '../../attachments/attachment-store';
import type { KbEntryRepository } from '../../repositories/kb-entry-repository';

/** DELETE /knowledge-base/document/{document_id}: every chunk of the document, and its stored file, permanently. */
export class DeleteDocument {
  constructor(
    private readonly entries: KbEntryRepository,
    private readonly store: AttachmentStore,
    private readonly logger: Logger,
  ) {}

  async execute({ ctx, params }: DeleteDocumentRequest): Promise<DeleteDocumentResponse> {
    const first = (await this.entries.listDocument(ctx.org_id, params.document_id))[0];
    const deleted = await this.entries.deleteDocument(ctx.org_id, params.document_id);
    if (deleted === 0) throw Errors.notFound(`No document ${params.document_id} in this organization's knowledge base`);
    const meta = (first?.metadata ?? {}) as { fileName?: string; filePath?: string };
    if (meta.filePath) {
      await this.store
        .removeLinks(ctx.org_id, [{ url: meta.filePath, type: '', name: meta.fileName ?? '' }])
        .catch((err) => this.logger.warn({ err, document_id: params.document_id }, 'could not remove the stored document'));
    }
    return { document_id: params.document_id, deleted_count: deleted };
  }
}
