import type { RouteContract } from '../http/define-route';
import { CreateWebhooksRoute } from './create-webhooks/create-webhooks.contract';
import { DeleteWebhookRoute } from './delete-webhook/delete-webhook.contract';
import { GetWebhookRoute } from './get-webhook/get-webhook.contract';
import { ListWebhookAttemptsRoute } from './list-attempts/list-attempts.contract';
import { ListWebhooksRoute } from './list-webhooks/list-webhooks.contract';
import { RedeliverEventRoute } from './redeliver-event/redeliver-event.contract';
import { ReplayEventsRoute } from './replay-events/replay-events.contract';
import { RotateWebhookSecretRoute } from './rotate-secret/rotate-secret.contract';
import { UpdateWebhookRoute } from './update-webhook/update-webhook.contract';
import { EVENT_SINK_ROUTES } from './event-sink/event-sink-routes';

export * from './subscription/subscription.schema';
export * from './list-webhooks/list-webhooks.contract';
export * from './create-webhooks/create-webhooks.contract';
export * from './get-webhook/get-webhook.contract';
export * from './update-webhook/update-webhook.contract';
export * from './delete-webhook/delete-webhook.contract';
export * from './rotate-secret/rotate-secret.contract';
export * from './list-attempts/list-attempts.contract';
export * from './redeliver-event/redeliver-event.contract';
export * from './replay-events/replay-events.contract';
export * from './import-subscriptions/import-subscriptions.contract';
export * from './event-sink/event-sink-routes';

/** The webhooks service's public routes and messages: one folder per message (<name>/<name>.contract.ts). */
export const WEBHOOKS_ROUTES: readonly RouteContract[] = [
  ListWebhooksRoute,
  CreateWebhooksRoute,
  GetWebhookRoute,
  UpdateWebhookRoute,
  DeleteWebhookRoute,
  RotateWebhookSecretRoute,
  ListWebhookAttemptsRoute,
  RedeliverEventRoute,
  ReplayEventsRoute,
  ...EVENT_SINK_ROUTES,
];

/** Every RPC the webhooks service answers. */
export const WEBHOOKS_RPCS = [
  ListWebhooksRoute.rpc,
  CreateWebhooksRoute.rpc,
  GetWebhookRoute.rpc,
  UpdateWebhookRoute.rpc,
  DeleteWebhookRoute.rpc,
  RotateWebhookSecretRoute.rpc,
  ListWebhookAttemptsRoute.rpc,
  RedeliverEventRoute.rpc,
  ReplayEventsRoute.rpc,
  ...EVENT_SINK_ROUTES.map((r) => r.rpc),
] as const;
