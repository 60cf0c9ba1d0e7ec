import { Prisma, queryRows, type PrismaClient } from '@mapi/db';
import type { KbEntryType } from '@mapi/contracts';
import type { KbEntryRow, NewKbEntry } from '../rows/kb-entry-row';
import { hnswSettings, type KbSearchSettings } from '../rows/search-settings';
import { EMBEDDING_DIMENSIONS } from '../rows/embedding-dimensions';
import { HALFVEC_EXPRESSION, type OrgIndexKind } from './kb-org-index-repository';

const COLUMNS = Prisma.sql`context_id::text AS context_id, org_id::text AS org_id, type, question, answer,
  embedding::text AS embedding, content_version, attachments, avg_rating, document_id::text AS document_id,
  is_active, metadata, tags, created_at, updated_at`;

export interface ListFilter {
  type?: KbEntryType;
  isActive?: boolean;
}

export interface EntryChanges {
  question?: string;
  answer?: string;
  is_active?: boolean;
  attachments?: NewKbEntry['attachments'];
}

export interface EntryToEmbed {
  context_id: string;
  content_version: number;
  question: string;
  answer: string;
}

/** An entry whose embedding is pending, as the lost-job sweep needs it. */
export interface PendingEntry {
  context_id: string;
  type: KbEntryType;
  content_version: number;
  document_id: string | null;
  chunk_index: number | null;
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/**
 * Knowledge-base entries. Every method takes the organization first, so no query can reach another
 * organization's rows. Raw SQL throughout: the vector column is `Unsupported` in Prisma.
 */
export class KbEntryRepository {
  /** `searchSettings`: how searches get their HNSW settings behind a transaction-mode pooler (createKbPrismaClient). */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly searchSettings?: KbSearchSettings,
  ) {}

  async insertMany(orgId: string, entries: NewKbEntry[]): Promise<KbEntryRow[]> {
    if (entries.length === 0) return [];
    const values = entries.map(
      (e) => Prisma.sql`(${orgId}::uuid, ${e.type}, ${e.question}, ${e.answer}, ${e.is_active}, ${json(e.attachments)}::jsonb,
        ${e.document_id}::uuid, ${json(e.metadata)}::jsonb, ${e.tags ?? null}::text[])`,
    );
    const rows = await this.prisma.$queryRaw<KbEntryRow[]>`
      INSERT INTO knowledge_base_entries (org_id, type, question, answer, is_active, attachments, document_id, metadata, tags)
      VALUES ${Prisma.join(values)}
      RETURNING ${COLUMNS}`;
    return rows;
  }

  async findById(orgId: string, contextId: string): Promise<KbEntryRow | null> {
    const rows = await this.prisma.$queryRaw<KbEntryRow[]>`
      SELECT ${COLUMNS} FROM knowledge_base_entries WHERE org_id = ${orgId}::uuid AND context_id = ${contextId}::uuid`;
    return rows[0] ?? null;
  }

  /** Applies the changes; a changed question or answer bumps content_version and clears the stale vector. */
  async update(orgId: string, contextId: string, changes: EntryChanges): Promise<KbEntryRow | null> {
    const sets = [Prisma.sql`updated_at = CURRENT_TIMESTAMP`];
    if (changes.question !== undefined) sets.push(Prisma.sql`question = ${changes.question}`);
    if (changes.answer !== undefined) sets.push(Prisma.sql`answer = ${changes.answer}`);
    if (changes.is_active !== undefined) sets.push(Prisma.sql`is_active = ${changes.is_active}`);
    if (changes.attachments !== undefined) sets.push(Prisma.sql`attachments = ${json(changes.attachments)}::jsonb`);
    const textChanged = Prisma.sql`(${changes.question ?? null}::text IS NOT NULL AND ${changes.question ?? null}::text IS DISTINCT FROM question)
      OR (${changes.answer ?? null}::text IS NOT NULL AND ${changes.answer ?? null}::text IS DISTINCT FROM answer)`;
    sets.push(Prisma.sql`content_version = CASE WHEN ${textChanged} THEN content_version + 1 ELSE content_version END`);
    sets.push(Prisma.sql`embedding = CASE WHEN ${textChanged} THEN NULL ELSE embedding END`);
    sets.push(Prisma.sql`embedding_model = CASE WHEN ${textChanged} THEN NULL ELSE embedding_model END`);
    const rows = await this.prisma.$queryRaw<KbEntryRow[]>`
      UPDATE knowledge_base_entries SET ${Prisma.join(sets)}
       WHERE org_id = ${orgId}::uuid AND context_id = ${contextId}::uuid
      RETURNING ${COLUMNS}`;
    return rows[0] ?? null;
  }

  /** Deletes the entry only if it is of `type`; answers the deleted row, or null. */
  async deleteOfType(orgId: string, contextId: string, type: KbEntryType): Promise<KbEntryRow | null> {
    const rows = await this.prisma.$queryRaw<KbEntryRow[]>`
      DELETE FROM knowledge_base_entries
       WHERE org_id = ${orgId}::uuid AND context_id = ${contextId}::uuid AND type = ${type}
      RETURNING ${COLUMNS}`;
    return rows[0] ?? null;
  }

  async list(orgId: string, filter: ListFilter, page: { offset: number; limit: number }): Promise<{ rows: KbEntryRow[]; count: number }> {
    const where = this.listWhere(orgId, filter);
    const [rows, counted] = await Promise.all([
      this.prisma.$queryRaw<KbEntryRow[]>`
        SELECT ${COLUMNS} FROM knowledge_base_entries WHERE ${where}
         ORDER BY created_at DESC, context_id DESC OFFSET ${page.offset} LIMIT ${page.limit}`,
      this.prisma.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) AS count FROM knowledge_base_entries WHERE ${where}`,
    ]);
    return { rows, count: Number(counted[0]?.count ?? 0) };
  }

  async listDocument(orgId: string, documentId: string): Promise<KbEntryRow[]> {
    return this.prisma.$queryRaw<KbEntryRow[]>`
      SELECT ${COLUMNS} FROM knowledge_base_entries
       WHERE org_id = ${orgId}::uuid AND document_id = ${documentId}::uuid AND type = 'document'
       ORDER BY (metadata->>'chunkIndex')::int, created_at`;
  }

  async deleteDocument(orgId: string, documentId: string): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM knowledge_base_entries WHERE org_id = ${orgId}::uuid AND document_id = ${documentId}::uuid AND type = 'document'`;
  }

  /**
   * The k entries nearest to `vector` by cosine distance. With hnsw.iterative_scan (connection options,
   * see createKbPrismaClient, or SET LOCAL in the same transaction behind a pooler) the HNSW index keeps
   * scanning until k rows pass the organization filter; relaxed order is re-sorted here.
   * `walk`: `halfvec` orders the walk by the halfvec expression, so an organization's own halfvec index
   * (KbOrgIndexDirectory says which organizations have one) is the one planned; `distance` (the score) is
   * always the full-precision one and the k found are sorted by it.
   */
  async search(
    orgId: string,
    vectorLiteral: string,
    k: number,
    filter: ListFilter,
    walk: OrgIndexKind = 'vector',
  ): Promise<Array<KbEntryRow & { distance: number }>> {
    const sql = searchSql(orgId, vectorLiteral, k, filter, walk);
    // Direct to Postgres: on the pg pool under the client, without Prisma's per-query work (a real share
    // of a search's CPU); pg decodes these columns as Prisma does (timestamptz → Date, jsonb, text[], float8).
    // (The pool has its 'error' listener from createPrismaClient, so the own-index pool, which serves
    // searches only and never runs a Prisma query, needs no connect first.)
    if (!this.searchSettings?.perTransaction) return queryRows<KbEntryRow & { distance: number }>(this.prisma, sql);
    const query = this.prisma.$queryRaw<Array<KbEntryRow & { distance: number }>>(sql);
    const s = hnswSettings(this.searchSettings.efSearch);
    const [, rows] = await this.prisma.$transaction([
      this.prisma
        .$queryRaw`SELECT set_config('hnsw.iterative_scan', ${s['hnsw.iterative_scan']}, true), set_config('hnsw.ef_search', ${s['hnsw.ef_search']}, true)`,
      query,
    ]);
    return rows;
  }

  // The embedding worker's side.

  async loadForEmbedding(orgId: string, contextIds: string[]): Promise<EntryToEmbed[]> {
    if (contextIds.length === 0) return [];
    return this.prisma.$queryRaw<EntryToEmbed[]>`
      SELECT context_id::text AS context_id, content_version, question, answer FROM knowledge_base_entries
       WHERE org_id = ${orgId}::uuid AND context_id = ANY(${contextIds}::uuid[])`;
  }

  /** Stores the vector only if the text is still the version that was embedded; answers whether it did. */
  async saveEmbedding(orgId: string, contextId: string, version: number, vectorLiteral: string, model: string): Promise<boolean> {
    const n = await this.prisma.$executeRaw`
      UPDATE knowledge_base_entries SET embedding = ${vectorLiteral}::vector, embedding_model = ${model}
       WHERE org_id = ${orgId}::uuid AND context_id = ${contextId}::uuid AND content_version = ${version}`;
    return n === 1;
  }

  // The lost-job sweep's side (RequeueLostEmbeddings).

  /**
   * Organizations with an entry pending (no vector) since before `before` (its last text change, else
   * its creation). The sweep's only read across organizations, and it reads ids only.
   */
  async orgsWithStalePending(before: Date, limit: number): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ org_id: string }>>`
      SELECT DISTINCT org_id::text AS org_id FROM knowledge_base_entries
       WHERE embedding IS NULL AND COALESCE(updated_at, created_at) < ${before}
       LIMIT ${limit}`;
    return rows.map((r) => r.org_id);
  }

  /** The organization's entries pending since before `before`, oldest first (partial index on pending rows). */
  async stalePending(orgId: string, before: Date, limit: number): Promise<PendingEntry[]> {
    return this.prisma.$queryRaw<PendingEntry[]>`
      SELECT context_id::text AS context_id, type, content_version, document_id::text AS document_id,
             (metadata->>'chunkIndex')::int AS chunk_index
        FROM knowledge_base_entries
       WHERE org_id = ${orgId}::uuid AND embedding IS NULL AND COALESCE(updated_at, created_at) < ${before}
       ORDER BY COALESCE(updated_at, created_at)
       LIMIT ${limit}`;
  }

  private listWhere(orgId: string, filter: ListFilter): Prisma.Sql {
    return whereOf(orgId, filter);
  }
}

function whereOf(orgId: string, filter: ListFilter): Prisma.Sql {
  const parts = [Prisma.sql`org_id = ${orgId}::uuid`];
  if (filter.type) parts.push(Prisma.sql`type = ${filter.type}`);
  if (filter.isActive !== undefined) parts.push(Prisma.sql`is_active = ${filter.isActive}`);
  return Prisma.join(parts, ' AND ');
}

/**
 * The search statement of KbEntryRepository.search (exported so the bench and the plan tests run exactly
 * it): the k nearest of the organization, walked by the full vector or, for an organization with a halfvec
 * index of its own, by the halfvec expression; `distance` always the full-precision cosine distance.
 */
export function searchSql(orgId: string, vectorLiteral: string, k: number, filter: ListFilter, walk: OrgIndexKind = 'vector'): Prisma.Sql {
  const order =
    walk === 'halfvec'
      ? Prisma.sql`${Prisma.raw(HALFVEC_EXPRESSION)} <=> ${vectorLiteral}::halfvec(${Prisma.raw(String(EMBEDDING_DIMENSIONS))})`
      : Prisma.sql`embedding <=> ${vectorLiteral}::vector`;
  return Prisma.sql`
      WITH nearest AS MATERIALIZED (
        SELECT ${COLUMNS}, embedding <=> ${vectorLiteral}::vector AS distance
          FROM knowledge_base_entries
         WHERE ${whereOf(orgId, filter)} AND embedding IS NOT NULL
         ORDER BY ${order}
         LIMIT ${k})
      SELECT * FROM nearest ORDER BY distance, context_id`;
}
