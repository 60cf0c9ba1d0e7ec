import type { KbEntry } from '@mapi/contracts';
import type { KbEntryRow } from '../rows/kb-entry-row';

/** A stored entry as the API shows it (spec 2.2): ISO 8601 times, empty attachment lists as null. */
export function mapKbEntry(row: KbEntryRow): KbEntry {
  return {
    context_id: row.context_id,
    org_id: row.org_id,
    question: row.question,
    answer: row.answer,
    type: row.type,
    embedding: row.embedding,
    attachments: row.attachments && row.attachments.length > 0 ? row.attachments : null,
    avg_rating: row.avg_rating,
    document_id: row.document_id,
    is_active: row.is_active,
    metadata: row.metadata,
    tags: row.tags && row.tags.length > 0 ? row.tags : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at ? row.updated_at.toISOString() : null,
  };
}
