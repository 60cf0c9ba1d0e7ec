import { ImportSubscriptionsRpc } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { ImportSubscriptions } from './usecases/import-subscriptions/import-subscriptions.usecase';
import {
  CreateEventSinksRpc,
  CreateWebhooksRpc,
  DeleteEventSinkRpc,
  GetEventSinkRpc,
  ListEventSinkAttemptsRpc,
  ListEventSinksRpc,
  ReplayEventSinkRpc,
  RedeliverEventSinkRpc,
  UpdateEventSinkRpc,
  DeleteWebhookRpc,
  GetWebhookRpc,
  ListWebhookAttemptsRpc,
  ListWebhooksRpc,
  RedeliverEventRpc,
  ReplayEventsRpc,
  RotateWebhookSecretRpc,
  UpdateWebhookRpc,
} from '@mapi/contracts';
import { rpcHandler } from '@mapi/platform';
import type { Clock } from './delivery/clock';
import type { DeliveryLogRepository } from './repositories/delivery-log-repository';
import type { SubscriptionRepository } from './repositories/subscription-repository';
import { CreateWebhooks } from './usecases/create-webhooks/create-webhooks.usecase';
import { DeleteWebhook } from './usecases/delete-webhook/delete-webhook.usecase';
import { GetWebhook } from './usecases/get-webhook/get-webhook.usecase';
import { ListWebhookAttempts } from './usecases/list-attempts/list-attempts.usecase';
import { ListWebhooks } from './usecases/list-webhooks/list-webhooks.usecase';
import { RedeliverEvent } from './usecases/redeliver-event/redeliver-event.usecase';
import { ReplayEvents } from './usecases/replay-events/replay-events.usecase';
import { RotateWebhookSecret } from './usecases/rotate-secret/rotate-secret.usecase';
import { UpdateWebhook } from './usecases/update-webhook/update-webhook.usecase';
import type { SinkSecrets } from './sinks/sink-secrets';
import { CreateEventSinks } from './usecases/create-event-sinks/create-event-sinks.usecase';
import { DeleteEventSink } from './usecases/delete-event-sink/delete-event-sink.usecase';
import { GetEventSink } from './usecases/get-event-sink/get-event-sink.usecase';
import { ListEventSinks } from './usecases/list-event-sinks/list-event-sinks.usecase';
import { UpdateEventSink } from './usecases/update-event-sink/update-event-sink.usecase';

export interface WebhooksDeps {
  prisma: PrismaClient;
  subscriptions: SubscriptionRepository;
  /** The same table seen as event sinks (transport other than http): the /v1/event-sinks routes. */
  sinks: SubscriptionRepository;
  /** Seals and opens sinks' credentials. */
  secrets: SinkSecrets;
  log: DeliveryLogRepository;
  clock: Clock;
  /** Wakes this replica's delivery worker when a use case scheduled deliveries. */
  onScheduled: () => void;
  rotationOverlapMs: number;
}

const serve = rpcHandler<WebhooksDeps>();

/** What the webhooks service answers (role `api`): one line per operation, its contract and its use case. */
export const WEBHOOKS_HANDLERS = [
  serve(ListWebhooksRpc, (d) => new ListWebhooks(d.subscriptions)),
  serve(CreateWebhooksRpc, (d) => new CreateWebhooks(d.subscriptions)),
  serve(GetWebhookRpc, (d) => new GetWebhook(d.subscriptions)),
  serve(UpdateWebhookRpc, (d) => new UpdateWebhook(d.subscriptions)),
  serve(DeleteWebhookRpc, (d) => new DeleteWebhook(d.subscriptions)),
  serve(RotateWebhookSecretRpc, (d) => new RotateWebhookSecret(d.subscriptions, d.clock, d.rotationOverlapMs)),
  serve(ListWebhookAttemptsRpc, (d) => new ListWebhookAttempts(d.subscriptions, d.log)),
  serve(RedeliverEventRpc, (d) => new RedeliverEvent(d.subscriptions, d.log, d.clock, d.onScheduled)),
  serve(ReplayEventsRpc, (d) => new ReplayEvents(d.subscriptions, d.log, d.clock, d.onScheduled)),
  // /v1/event-sinks (issue 36): the same use cases where they are the same (the log, replay)
  serve(ListEventSinksRpc, (d) => new ListEventSinks(d.sinks)),
  serve(CreateEventSinksRpc, (d) => new CreateEventSinks(d.sinks, d.secrets)),
  serve(GetEventSinkRpc, (d) => new GetEventSink(d.sinks)),
  serve(UpdateEventSinkRpc, (d) => new UpdateEventSink(d.sinks, d.secrets)),
  serve(DeleteEventSinkRpc, (d) => new DeleteEventSink(d.sinks)),
  serve(ListEventSinkAttemptsRpc, (d) => new ListWebhookAttempts(d.sinks, d.log)),
  serve(ReplayEventSinkRpc, (d) => new ReplayEvents(d.sinks, d.log, d.clock, d.onScheduled)),
  serve(RedeliverEventSinkRpc, (d) => new RedeliverEvent(d.sinks, d.log, d.clock, d.onScheduled)),
  // the importer's writes (docs/services/imports.md)
  serve(ImportSubscriptionsRpc, (d) => new ImportSubscriptions(d.prisma)),
];
