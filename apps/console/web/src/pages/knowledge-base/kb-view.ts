import type { KbEntry } from '../../api/types';

export interface KbDocument {
  document_id: string;
  file_name: string;
  chunks: number;
  /** Active chunks of all: a document is used by the agent through its active chunks. */
  active: number;
  created_at: string;
}

/** The listing's document chunks gathered per document (first seen first: the listing is newest first). */
export function groupDocuments(entries: readonly KbEntry[]): KbDocument[] {
  const docs = new Map<string, KbDocument>();
  for (const e of entries) {
    if (e.type !== 'document' || !e.document_id) continue;
    const doc = docs.get(e.document_id) ?? {
      document_id: e.document_id,
      file_name: String(e.metadata?.fileName ?? e.question ?? e.document_id),
      chunks: 0,
      active: 0,
      created_at: e.created_at,
    };
    doc.chunks += 1;
    if (e.is_active) doc.active += 1;
    docs.set(e.document_id, doc);
  }
  return [...docs.values()];
}

/** FAQs and self-learned entries: the ones edited one by one. */
export const questionEntries = (entries: readonly KbEntry[]): KbEntry[] => entries.filter((e) => e.type !== 'document');

/** Whether the agent can find it yet: the embedding is computed by a worker, a moment after a change. */
export const searchable = (e: Pick<KbEntry, 'embedding'>): string => (e.embedding ? 'ready' : 'pending');

/** A similarity score (-1..1) as a percentage for people. */
export const scoreText = (score: number): string => `${Math.round(score * 100)}%`;
