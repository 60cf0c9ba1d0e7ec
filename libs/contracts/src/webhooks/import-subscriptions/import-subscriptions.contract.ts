import { z } from 'zod';
import { importBatchRpc } from '../../imports/import-batch';

/**
 * Internal (the importer, docs/services/imports.md): subscriptions as GET /webhooks answers them
 * (spec 2.3), each with `source_id` (its id there). They come over switched off (`is_subscribed`
 * false, `disabled_reason` "imported"), with a new signing secret: nothing is delivered twice while
 * both systems run, and the source's secret cannot be read through its API.
 */
export const ImportSubscriptionsRpc = importBatchRpc('webhooks.v1.import.subscriptions', 'webhooks');
export type ImportSubscriptionsRequest = z.infer<typeof ImportSubscriptionsRpc.request>;
