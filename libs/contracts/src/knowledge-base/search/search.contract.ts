import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { KbEntrySchema, KbEntryTypeSchema } from '../entry/kb-entry.schema';

export const MAX_SEARCH_K = 100;

export const SearchKbBody = z.object({
  query: z.string({ error: 'query is required' }).trim().min(1, 'query must not be empty').max(8000, 'query is at most 8000 characters'),
  k: z
    .number({ error: 'k must be a number' })
    .int('k must be a whole number')
    .min(1, 'k should be at least 1')
    .max(MAX_SEARCH_K, `k should be less than or equal to ${MAX_SEARCH_K}`)
    .default(5),
  type: KbEntryTypeSchema.optional(),
  is_active: z.boolean({ error: 'is_active must be a boolean' }).optional(),
});
export type SearchKbBody = z.infer<typeof SearchKbBody>;

export const SearchKbHit = KbEntrySchema.extend({
  /** Cosine similarity to the query, -1..1 (1 is identical). */
  score: z.number(),
});
export const SearchKbResponse = z.object({ data: z.array(SearchKbHit), count: z.number().int() });
export type SearchKbResponse = z.infer<typeof SearchKbResponse>;

export const SearchKbRpc = defineRpc({
  subject: 'knowledge-base.v1.search',
  service: 'knowledge-base',
  request: z.object({ ctx: RequestContextSchema, body: SearchKbBody }),
  response: SearchKbResponse,
});
export type SearchKbRequest = z.infer<typeof SearchKbRpc.request>;

export const SearchKbRoute = defineRoute({
  operationId: 'searchKnowledgeBase',
  method: 'POST',
  path: '/knowledge-base/search',
  tag: 'knowledge-base',
  summary: 'Entries most similar to a query, with their score: what the AI agent would retrieve',
  description: `k defaults to 5 (at most ${MAX_SEARCH_K}); optional type and is_active filters. Entries whose embedding is still pending are not found.`,
  body: SearchKbBody,
  phone: 'none',
  rpc: SearchKbRpc,
  successStatus: 200,
  response: SearchKbResponse,
});
