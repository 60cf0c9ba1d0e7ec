import type { RouteContract } from '../http/define-route';
import { BroadcastMessageRoute } from './broadcast-message/broadcast-message.contract';
import { BroadcastStatusRoute } from './broadcast-status/broadcast-status.contract';
import { ListMessageQueuesRoute, ListQueueJobsRoute } from './list-jobs/list-jobs.contract';
import { LegacyPurgeQueueRoute, PurgeQueuesRoute } from './purge-queue/purge-queue.contract';
import { QueueStatusRoute } from './queue-status/queue-status.contract';
import { SendMessageRoute } from './send-message/send-message.contract';

export * from './job/queue-job.schema';
export * from './send-message/send-message.contract';
export * from './broadcast-message/broadcast-message.contract';
export * from './purge-queue/purge-queue.contract';
export * from './queue-status/queue-status.contract';
export * from './list-jobs/list-jobs.contract';
export * from './broadcast-status/broadcast-status.contract';

/** The queue service's public routes (the gateway serves every route of every service's list). */
export const QUEUE_ROUTES: readonly RouteContract[] = [
  SendMessageRoute,
  BroadcastMessageRoute,
  PurgeQueuesRoute,
  LegacyPurgeQueueRoute,
  QueueStatusRoute,
  ListQueueJobsRoute,
  ListMessageQueuesRoute,
  BroadcastStatusRoute,
];
