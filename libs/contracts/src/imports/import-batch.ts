import { z } from 'zod';
import { RequestContextSchema } from '../common/request-context';
import { defineRpc } from '../rpc/define-rpc';

/**
 * The shape every owning service's import RPC shares (internal subjects `<service>.v1.import.<what>`,
 * no public route): the importer sends a batch of objects read from the source organization's public
 * API, each with the id it had there; the owner writes them through its own rules and answers one
 * result per item, in order. A bad item never fails the batch: it is answered `failed` with why.
 *
 * Ids (docs/services/imports.md, "Ids"): the owner keeps `source_id` as the row's id when it can;
 * `target_id` (from an earlier run's id map) names the row to update; when the source id is taken by
 * another organization's row, or is not a valid id here, the owner makes a new one and answers it.
 */
export const importItemFields = {
  /** The object's id in the source organization. */
  source_id: z.string().min(1).max(300),
  /** The id an earlier run gave it here, when the importer's id map has one. */
  target_id: z.string().min(1).max(300).optional(),
};

export const ImportOutcomeSchema = z.enum(['created', 'updated', 'skipped', 'failed']);
export type ImportOutcome = z.infer<typeof ImportOutcomeSchema>;

export const ImportItemResultSchema = z.object({
  source_id: z.string(),
  /** The row's id here; null when the item failed. */
  target_id: z.string().nullable(),
  /** created: new here; updated: existed and changed; skipped: existed unchanged; failed: see reason. */
  outcome: ImportOutcomeSchema,
  reason: z.string().optional(),
});
export type ImportItemResult = z.infer<typeof ImportItemResultSchema>;

export const ImportBatchResponse = z.object({ results: z.array(ImportItemResultSchema) });
export type ImportBatchResponse = z.infer<typeof ImportBatchResponse>;

/** Largest batch an import RPC takes (requests stay well under NATS' max_payload). */
export const MAX_IMPORT_BATCH = 500;

/** What every import RPC takes: a batch of items in the target organization's name (each item checked by its owner). */
export const ImportBatchRequest = z.object({
  ctx: RequestContextSchema,
  body: z.object({ items: z.array(z.unknown()).max(MAX_IMPORT_BATCH) }),
});
export type ImportBatchRequest = z.infer<typeof ImportBatchRequest>;

/** An owner's import RPC (`<service>.v1.import.<what>`, internal, no route): a batch in, one result per item out. */
export const importBatchRpc = (subject: string, service: string) =>
  defineRpc({ subject, service, request: ImportBatchRequest, response: ImportBatchResponse });
