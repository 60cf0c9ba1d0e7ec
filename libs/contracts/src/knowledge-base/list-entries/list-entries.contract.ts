import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { booleanFromQuery, KbEntrySchema, KbEntryTypeSchema } from '../entry/kb-entry.schema';

export const MAX_KB_LIST_LIMIT = 1000;

const intFromQuery = (name: string, min: number, max?: number) => {
  let n = z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} should be at least ${min}`);
  if (max !== undefined) n = n.max(max, `${name} should be less than or equal to ${max}`);
  return z.preprocess((v) => (typeof v === 'string' && !/^-?\d+(\.\d+)?$/.test(v.trim()) ? Number.NaN : v), n);
};

export const ListKbEntriesQuery = z.object({
  offset: intFromQuery('offset', 0).default(0),
  limit: intFromQuery('limit', 1, MAX_KB_LIST_LIMIT).default(100),
  type: KbEntryTypeSchema.optional(),
  is_active: booleanFromQuery('is_active').optional(),
});

export const ListKbEntriesResponse = z.object({
  data: z.array(KbEntrySchema),
  /** Entries matching the filters in all (not only this page). */
  count: z.number().int(),
});
export type ListKbEntriesResponse = z.infer<typeof ListKbEntriesResponse>;

export const ListKbEntriesRpc = defineRpc({
  subject: 'knowledge-base.v1.entries.list',
  service: 'knowledge-base',
  request: z.object({ ctx: RequestContextSchema, query: ListKbEntriesQuery }),
  response: ListKbEntriesResponse,
});
export type ListKbEntriesRequest = z.infer<typeof ListKbEntriesRpc.request>;

export const ListKbEntriesRoute = defineRoute({
  operationId: 'listKnowledgeBase',
  method: 'GET',
  path: '/knowledge-base',
  tag: 'knowledge-base',
  summary: 'List knowledge-base entries, newest first',
  description: `offset (default 0), limit (default 100, at most ${MAX_KB_LIST_LIMIT}), type (faq|document|self-learned), is_active (true|false). count is the total matching.`,
  query: ListKbEntriesQuery,
  phone: 'none',
  rpc: ListKbEntriesRpc,
  successStatus: 200,
  response: ListKbEntriesResponse,
});
