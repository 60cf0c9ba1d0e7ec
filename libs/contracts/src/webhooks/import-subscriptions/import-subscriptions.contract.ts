import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { ImportBatchResponse, MAX_IMPORT_BATCH } from '../../imports/import-batch';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * Internal (the importer, docs/services/imports.md): subscriptions as GET /webhooks answers them
 * (spec 2.3), each with `source_id` (its id there). They come over switched off (`is_subscribed`
 * false, `disabled_reason` "imported"), with a new signing secret: nothing is delivered twice while
 * both systems run, and the source's secret cannot be read through its API.
 */
export const ImportSubscriptionsRpc = defineRpc({
  subject: 'webhooks.v1.import.subscriptions',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, body: z.object({ items: z.array(z.unknown()).max(MAX_IMPORT_BATCH) }) }),
  response: ImportBatchResponse,
});
export type ImportSubscriptionsRequest = z.infer<typeof ImportSubscriptionsRpc.request>;
