import type { KbAttachment, KbEntryType } from '@mapi/contracts';

/** A stored entry as the repository reads it (embedding as pgvector text, null while pending). */
export interface KbEntryRow {
  context_id: string;
  org_id: string;
  type: KbEntryType;
  question: string;
  answer: string;
  embedding: string | null;
  content_version: number;
  attachments: KbAttachment[] | null;
  avg_rating: number | null;
  document_id: string | null;
  is_active: boolean;
  metadata: Record<string, unknown> | null;
  tags: string[] | null;
  created_at: Date;
  updated_at: Date | null;
}

export interface NewKbEntry {
  type: KbEntryType;
  question: string;
  answer: string;
  is_active: boolean;
  attachments: KbAttachment[] | null;
  document_id: string | null;
  metadata: Record<string, unknown> | null;
  tags?: string[] | null;
}
