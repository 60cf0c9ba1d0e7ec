import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  CreateWebhooksRpc,
  DeleteWebhookRpc,
  GetWebhookRpc,
  ListWebhookAttemptsRpc,
  ListWebhooksRpc,
  RedeliverEventRpc,
  ReplayEventsRpc,
  RotateWebhookSecretRpc,
  UpdateWebhookRpc,
  type CreateWebhooksRequest,
  type DeleteWebhookRequest,
  type GetWebhookRequest,
  type ListWebhookAttemptsRequest,
  type ListWebhooksRequest,
  type RedeliverEventRequest,
  type ReplayEventsRequest,
  type RotateWebhookSecretRequest,
  type UpdateWebhookRequest,
} from '@mapi/contracts';
import { CreateWebhooks } from './usecases/create-webhooks/create-webhooks.usecase';
import { DeleteWebhook } from './usecases/delete-webhook/delete-webhook.usecase';
import { GetWebhook } from './usecases/get-webhook/get-webhook.usecase';
import { ListWebhookAttempts } from './usecases/list-attempts/list-attempts.usecase';
import { ListWebhooks } from './usecases/list-webhooks/list-webhooks.usecase';
import { RedeliverEvent } from './usecases/redeliver-event/redeliver-event.usecase';
import { ReplayEvents } from './usecases/replay-events/replay-events.usecase';
import { RotateWebhookSecret } from './usecases/rotate-secret/rotate-secret.usecase';
import { UpdateWebhook } from './usecases/update-webhook/update-webhook.usecase';

/** NATS handlers of the webhooks service; requests arrive validated against their contracts. */
@Controller()
export class WebhooksController {
  constructor(
    @Inject(ListWebhooks) private readonly listWebhooks: ListWebhooks,
    @Inject(CreateWebhooks) private readonly createWebhooks: CreateWebhooks,
    @Inject(GetWebhook) private readonly getWebhook: GetWebhook,
    @Inject(UpdateWebhook) private readonly updateWebhook: UpdateWebhook,
    @Inject(DeleteWebhook) private readonly deleteWebhook: DeleteWebhook,
    @Inject(RotateWebhookSecret) private readonly rotateSecret: RotateWebhookSecret,
    @Inject(ListWebhookAttempts) private readonly listAttempts: ListWebhookAttempts,
    @Inject(RedeliverEvent) private readonly redeliverEvent: RedeliverEvent,
    @Inject(ReplayEvents) private readonly replayEvents: ReplayEvents,
  ) {}

  @MessagePattern(ListWebhooksRpc.subject)
  list(request: ListWebhooksRequest) {
    return this.listWebhooks.execute(request);
  }

  @MessagePattern(CreateWebhooksRpc.subject)
  create(request: CreateWebhooksRequest) {
    return this.createWebhooks.execute(request);
  }

  @MessagePattern(GetWebhookRpc.subject)
  get(request: GetWebhookRequest) {
    return this.getWebhook.execute(request);
  }

  @MessagePattern(UpdateWebhookRpc.subject)
  update(request: UpdateWebhookRequest) {
    return this.updateWebhook.execute(request);
  }

  @MessagePattern(DeleteWebhookRpc.subject)
  delete(request: DeleteWebhookRequest) {
    return this.deleteWebhook.execute(request);
  }

  @MessagePattern(RotateWebhookSecretRpc.subject)
  rotate(request: RotateWebhookSecretRequest) {
    return this.rotateSecret.execute(request);
  }

  @MessagePattern(ListWebhookAttemptsRpc.subject)
  attempts(request: ListWebhookAttemptsRequest) {
    return this.listAttempts.execute(request);
  }

  @MessagePattern(RedeliverEventRpc.subject)
  redeliver(request: RedeliverEventRequest) {
    return this.redeliverEvent.execute(request);
  }

  @MessagePattern(ReplayEventsRpc.subject)
  replay(request: ReplayEventsRequest) {
    return this.replayEvents.execute(request);
  }
}
