import {
  BroadcastMessageRpc,
  BroadcastStatusRpc,
  LegacyPurgeQueueRpc,
  ListJobsRpc,
  PurgeQueuesRpc,
  QueueStatusRpc,
  SendMessageRpc,
} from '@mapi/contracts';
import { rpcHandler, type Logger } from '@mapi/platform';
import type { IdempotencyStore } from './idempotency/idempotency-store';
import type { PhoneGate } from './phones/phone-gate';
import type { QueuePurger } from './queues/queue-purger';
import type { SendQueues } from './queues/send-queues';
import { BroadcastMessage } from './usecases/broadcast-message/broadcast-message.usecase';
import { GetBroadcastStatus } from './usecases/broadcast-status/broadcast-status.usecase';
import { LegacyPurgeQueue } from './usecases/legacy-purge-queue/legacy-purge-queue.usecase';
import { ListJobs } from './usecases/list-jobs/list-jobs.usecase';
import { PurgeQueue } from './usecases/purge-queue/purge-queue.usecase';
import { GetQueueStatus } from './usecases/queue-status/queue-status.usecase';
import { SendMessage, type ChoosePhone } from './usecases/send-message/send-message.usecase';
import type { JobsReach, SendReach } from './phones/member-reach';

export interface QueueDeps {
  queues: SendQueues;
  purger: QueuePurger;
  gate: PhoneGate;
  choosePhone: ChoosePhone;
  /** A member's sends only to chats within their reach (phones/member-reach.ts). */
  sendReach: SendReach;
  /** A member's job listings only of chats within their reach (phones/member-reach.ts). */
  jobsReach: JobsReach;
  idempotency: IdempotencyStore;
  logger: Logger;
}

const serve = rpcHandler<QueueDeps>();
const purgeQueue = (d: QueueDeps) => new PurgeQueue(d.gate, d.purger, d.logger);

/** What the queue service answers: one line per operation, its contract and its use case. */
export const QUEUE_HANDLERS = [
  serve(SendMessageRpc, (d) => new SendMessage(d.queues, d.choosePhone, d.idempotency, d.sendReach, d.gate)),
  serve(BroadcastMessageRpc, (d) => new BroadcastMessage(d.queues, d.idempotency, d.sendReach)),
  serve(PurgeQueuesRpc, purgeQueue),
  serve(LegacyPurgeQueueRpc, (d) => new LegacyPurgeQueue(purgeQueue(d))),
  serve(QueueStatusRpc, (d) => new GetQueueStatus(d.queues)),
  serve(ListJobsRpc, (d) => new ListJobs(d.queues, d.jobsReach)),
  serve(BroadcastStatusRpc, (d) => new GetBroadcastStatus(d.queues)),
];
