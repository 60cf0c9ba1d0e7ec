import { Errors, type GetDocumentRequest, type GetDocumentResponse } from '@mapi/contracts';
import type { KbEntryRepository } from '../../repositories/kb-entry-repository';
import { mapKbEntry } from '../../entries/map-kb-entry';

/** GET /knowledge-base/document/{document_id}: the document's chunks in order, with its file name and path. */
export class GetDocument {
  constructor(private readonly entries: KbEntryRepository) {}

  async execute({ ctx, params }: GetDocumentRequest): Promise<GetDocumentResponse> {
    const rows = await this.entries.listDocument(ctx.org_id, params.document_id);
    if (rows.length === 0) throw Errors.notFound(`No document ${params.document_id} in this organization's knowledge base`);
    const meta = (rows[0].metadata ?? {}) as { fileName?: string; filePath?: string };
    return {
      document_id: params.document_id,
      file_name: meta.fileName ?? '',
      file_path: meta.filePath ?? '',
      count: rows.length,
      data: rows.map(mapKbEntry),
    };
  }
}
