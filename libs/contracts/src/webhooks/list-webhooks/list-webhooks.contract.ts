import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EventNameSchema, HookUrlSchema, WebhookSubscriptionSchema } from '../subscription/subscription.schema';

/** `is_subscribed` arrives as a query string: only true/false (or a boolean) are accepted. */
const BooleanQuery = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' ? false : v),
  z.boolean({ error: 'is_subscribed must be true or false' }),
);

/** Spec 4.7 filters (names from ../shared/reference/wider-api.md), each optional, combinable (AND). */
export const ListWebhooksQuery = z.object({
  integration_name: EventNameSchema.optional(),
  is_subscribed: BooleanQuery.optional(),
  integration_id: z.uuid('integration_id must be a UUID').optional(),
  hook_url: HookUrlSchema.optional(),
  type: z.string().min(1, 'type must not be empty').max(100).optional(),
});
export type ListWebhooksQuery = z.infer<typeof ListWebhooksQuery>;

export const ListWebhooksResponse = z.array(WebhookSubscriptionSchema);

export const ListWebhooksRpc = defineRpc({
  subject: 'webhooks.v1.subscriptions.list',
  service: 'webhooks',
  request: z.object({ ctx: RequestContextSchema, query: ListWebhooksQuery }),
  response: ListWebhooksResponse,
});
export type ListWebhooksRequest = z.infer<typeof ListWebhooksRpc.request>;

export const ListWebhooksRoute = defineRoute({
  operationId: 'listWebhooks',
  method: 'GET',
  path: '/webhooks',
  tag: 'webhooks',
  summary: 'List webhook subscriptions, optionally filtered',
  description:
    'Filters integration_name (a catalogue event name), is_subscribed (true/false), integration_id (UUID), hook_url (URL) and type; ' +
    'all optional and combined with AND. A malformed filter value is a 422. Oldest subscription first.',
  query: ListWebhooksQuery,
  phone: 'none',
  role: 'admin',
  rpc: ListWebhooksRpc,
  successStatus: 200,
  response: ListWebhooksResponse,
});
