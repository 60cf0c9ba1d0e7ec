import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  BroadcastMessageRpc,
  BroadcastStatusRpc,
  LegacyPurgeQueueRpc,
  ListJobsRpc,
  PurgeQueuesRpc,
  QueueStatusRpc,
  SendMessageRpc,
  type BroadcastMessageRequest,
  type BroadcastStatusRequest,
  type LegacyPurgeQueueRequest,
  type ListJobsRequest,
  type PurgeQueuesRequest,
  type QueueStatusRequest,
  type SendMessageRequest,
} from '@mapi/contracts';
import { BroadcastMessage } from './usecases/broadcast-message/broadcast-message.usecase';
import { GetBroadcastStatus } from './usecases/broadcast-status/broadcast-status.usecase';
import { ListJobs } from './usecases/list-jobs/list-jobs.usecase';
import { PurgeQueue } from './usecases/purge-queue/purge-queue.usecase';
import { GetQueueStatus } from './usecases/queue-status/queue-status.usecase';
import { SendMessage } from './usecases/send-message/send-message.usecase';

/** NATS handlers of the queue service; requests arrive validated against their contracts. */
@Controller()
export class QueueController {
  constructor(
    @Inject(SendMessage) private readonly sendMessage: SendMessage,
    @Inject(BroadcastMessage) private readonly broadcastMessage: BroadcastMessage,
    @Inject(PurgeQueue) private readonly purgeQueue: PurgeQueue,
    @Inject(GetQueueStatus) private readonly queueStatus: GetQueueStatus,
    @Inject(ListJobs) private readonly listJobs: ListJobs,
    @Inject(GetBroadcastStatus) private readonly broadcastStatus: GetBroadcastStatus,
  ) {}

  @MessagePattern(SendMessageRpc.subject)
  send(request: SendMessageRequest) {
    return this.sendMessage.execute(request);
  }

  @MessagePattern(BroadcastMessageRpc.subject)
  broadcast(request: BroadcastMessageRequest) {
    return this.broadcastMessage.execute(request);
  }

  @MessagePattern(PurgeQueuesRpc.subject)
  purge(request: PurgeQueuesRequest) {
    return this.purgeQueue.execute(request);
  }

  @MessagePattern(LegacyPurgeQueueRpc.subject)
  purgeLegacy(request: LegacyPurgeQueueRequest) {
    return this.purgeQueue.executeLegacy(request);
  }

  @MessagePattern(QueueStatusRpc.subject)
  status(request: QueueStatusRequest) {
    return this.queueStatus.execute(request);
  }

  @MessagePattern(ListJobsRpc.subject)
  jobs(request: ListJobsRequest) {
    return this.listJobs.execute(request);
  }

  @MessagePattern(BroadcastStatusRpc.subject)
  broadcastProgress(request: BroadcastStatusRequest) {
    return this.broadcastStatus.execute(request);
  }
}
