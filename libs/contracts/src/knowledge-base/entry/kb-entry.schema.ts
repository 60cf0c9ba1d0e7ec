import { z } from 'zod';

export const KB_ENTRY_TYPES = ['faq', 'document', 'self-learned'] as const;
export const KbEntryTypeSchema = z.enum(KB_ENTRY_TYPES);
export type KbEntryType = z.infer<typeof KbEntryTypeSchema>;

/** `{ link: { url, type, name } }` (spec 2.2): url a storage path, type a MIME type, name a file name. */
export const KbAttachmentSchema = z.object({
  link: z.object({ url: z.string(), type: z.string(), name: z.string() }),
});
export type KbAttachment = z.infer<typeof KbAttachmentSchema>;

export const KbDocumentMetadataSchema = z.object({
  fileName: z.string(),
  filePath: z.string(),
  chunkIndex: z.number().int(),
  tokenCount: z.number().int(),
  source: z.enum(['qa', 'paragraph', 'text']),
});
export type KbDocumentMetadata = z.infer<typeof KbDocumentMetadataSchema>;

/**
 * Knowledge-base entry (spec 2.2). `embedding` is the pgvector value as text (`[0.1,-0.2,...]`);
 * it is null while the embedding worker has not yet computed it (docs/services/knowledge-base.md).
 */
export const KbEntrySchema = z.object({
  context_id: z.uuid(),
  org_id: z.uuid(),
  question: z.string(),
  answer: z.string(),
  type: KbEntryTypeSchema,
  embedding: z.string().nullable(),
  attachments: z.array(KbAttachmentSchema).nullable(),
  avg_rating: z.number().nullable(),
  document_id: z.uuid().nullable(),
  is_active: z.boolean(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  tags: z.array(z.string()).nullable(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
});
export type KbEntry = z.infer<typeof KbEntrySchema>;

/** `context_id` path parameter: the spec says minimum length 1; ids are UUIDs, anything else is a 422. */
export const ContextIdParams = z.object({
  context_id: z.string().min(1, 'context_id is required').pipe(z.uuid('context_id must be a UUID')),
});
export const DocumentIdParams = z.object({
  document_id: z.string().min(1, 'document_id is required').pipe(z.uuid('document_id must be a UUID')),
});

/** Boolean query parameter: `true`/`false` strings (or booleans). */
export const booleanFromQuery = (name: string) =>
  z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean({ error: `${name} must be true or false` }));
