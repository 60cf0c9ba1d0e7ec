import { createHash } from 'node:crypto';
import type { PrismaClient } from '@mapi/db';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid derived from the organization and a source id: the same on every run, never another organization's. */
export function derivedId(orgId: string, sourceId: string): string {
  const h = createHash('sha256').update(`${orgId}/${sourceId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface ImportedEntry {
  type: 'faq' | 'document';
  question: string;
  answer: string;
  is_active: boolean;
  tags: string[] | null;
  metadata: unknown;
  document_id: string | null;
}

interface Existing {
  context_id: string;
  question: string;
  answer: string;
  is_active: boolean;
  tags: string[] | null;
  content_version: number;
}

/** Imported knowledge-base entries, by a kept or derived context_id. */
export class KbImportRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The id an entry of this source has here: the source's when free for this organization, else derived. */
  async idFor(orgId: string, sourceId: string, targetId: string | undefined): Promise<string> {
    for (const id of [targetId, sourceId]) {
      if (!id || !UUID.test(id)) continue;
      const rows = await this.prisma.$queryRaw<
        { org_id: string }[]
      >`SELECT org_id::text AS org_id FROM knowledge_base_entries WHERE context_id = ${id}::uuid`;
      if (!rows.length || rows[0].org_id === orgId) return id;
    }
    return derivedId(orgId, sourceId);
  }

  /** A document's id here: kept unless another organization's entries have it. */
  async documentIdFor(orgId: string, documentId: string | null): Promise<string | null> {
    if (!documentId || !UUID.test(documentId)) return null;
    const rows = await this.prisma.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM knowledge_base_entries WHERE document_id = ${documentId}::uuid AND org_id <> ${orgId}::uuid`;
    return rows[0].n ? derivedId(orgId, `document/${documentId}`) : documentId;
  }

  async find(orgId: string, contextId: string): Promise<Existing | null> {
    const rows = await this.prisma.$queryRaw<Existing[]>`
      SELECT context_id::text AS context_id, question, answer, is_active, tags, content_version
      FROM knowledge_base_entries WHERE org_id = ${orgId}::uuid AND context_id = ${contextId}::uuid`;
    return rows[0] ?? null;
  }

  async insert(orgId: string, contextId: string, e: ImportedEntry): Promise<number> {
    const rows = await this.prisma.$queryRaw<{ content_version: number }[]>`
      INSERT INTO knowledge_base_entries (context_id, org_id, type, question, answer, is_active, document_id, metadata, tags)
      VALUES (${contextId}::uuid, ${orgId}::uuid, ${e.type}, ${e.question}, ${e.answer}, ${e.is_active}, ${e.document_id}::uuid,
              ${e.metadata === null || e.metadata === undefined ? null : JSON.stringify(e.metadata)}::jsonb, ${e.tags}::text[])
      RETURNING content_version`;
    return rows[0].content_version;
  }

  /** Applies the source's text and flags; a changed text bumps the version and clears the vector. Answers the version. */
  async update(orgId: string, contextId: string, e: ImportedEntry): Promise<number> {
    const rows = await this.prisma.$queryRaw<{ content_version: number }[]>`
      UPDATE knowledge_base_entries SET
        content_version = CASE WHEN (question, answer) IS DISTINCT FROM (${e.question}, ${e.answer}) THEN content_version + 1 ELSE content_version END,
        embedding = CASE WHEN (question, answer) IS DISTINCT FROM (${e.question}, ${e.answer}) THEN NULL ELSE embedding END,
        embedding_model = CASE WHEN (question, answer) IS DISTINCT FROM (${e.question}, ${e.answer}) THEN NULL ELSE embedding_model END,
        question = ${e.question}, answer = ${e.answer}, is_active = ${e.is_active}, tags = ${e.tags}::text[], updated_at = CURRENT_TIMESTAMP
      WHERE org_id = ${orgId}::uuid AND context_id = ${contextId}::uuid
      RETURNING content_version`;
    return rows[0]?.content_version ?? 0;
  }
}
