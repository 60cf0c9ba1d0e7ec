import { z } from 'zod';
import { defineRoute } from '../../http/define-route';
import { queueRequest, queueRpc } from '../job/queue-job.schema';

/** Most queue_ids in one purge request. */
export const MAX_PURGE_QUEUE_IDS = 1_000;

/**
 * Spec 4.5: `queue_ids` → mode queue_ids, `broadcast_id` → mode broadcast, neither (an empty body) →
 * mode all. Both at once is refused (which one the caller meant is not clear).
 */
export const PurgeQueuesBody = z
  .object({
    queue_ids: z.array(z.uuid('each queue_id must be a UUID')).min(1, 'queue_ids must not be empty').max(MAX_PURGE_QUEUE_IDS).optional(),
    broadcast_id: z.string().min(1, 'broadcast_id must not be empty').max(200).optional(),
  })
  .refine((b) => !(b.queue_ids && b.broadcast_id), { message: 'send queue_ids or broadcast_id, not both', path: ['broadcast_id'] })
  .optional();
export type PurgeQueuesBody = z.infer<typeof PurgeQueuesBody>;

/** Spec 2.5: filters are echoed only when sent. */
export const PurgeConfirmationSchema = z.object({
  purged: z.literal(true),
  mode: z.enum(['all', 'queue_ids', 'broadcast']),
  queue_ids: z.array(z.string()).optional(),
  broadcast_id: z.string().optional(),
});
export type PurgeConfirmation = z.infer<typeof PurgeConfirmationSchema>;

export const PurgeQueuesRpc = queueRpc('purge', queueRequest({ body: PurgeQueuesBody }), PurgeConfirmationSchema);
export type PurgeQueuesRequest = z.infer<typeof PurgeQueuesRpc.request>;

const PURGE_DESCRIPTION =
  "Removes the phone's jobs not yet submitted (waiting, delayed, paused, prioritized; and a job a worker has picked up but not yet submitted). " +
  "Once this answers, none of them is ever sent. The phone must be connected (400 ERROR) and within the token's scope (401). " +
  'x-phone is required unless the token is scoped to exactly one phone.';

export const PurgeQueuesRoute = defineRoute({
  operationId: 'purgeMessageQueues',
  method: 'POST',
  path: '/message/queues/purge',
  tag: 'queue',
  summary: 'Purge the send queue of a phone (spec 4.5)',
  description: PURGE_DESCRIPTION,
  body: PurgeQueuesBody,
  phone: 'optional',
  role: 'admin',
  rpc: PurgeQueuesRpc,
  successStatus: 200,
  audit: { action: 'queue.purged', target: 'x-phone' },
  response: PurgeConfirmationSchema,
});

/** The older client's form: `queue_id` (one or many) or `broadcast_id`; 204. */
export const LegacyPurgeBody = z
  .object({
    queue_id: z
      .union([z.uuid('each queue_id must be a UUID'), z.array(z.uuid('each queue_id must be a UUID')).min(1).max(MAX_PURGE_QUEUE_IDS)])
      .optional(),
    broadcast_id: z.string().min(1).max(200).optional(),
  })
  .refine((b) => !(b.queue_id && b.broadcast_id), { message: 'send queue_id or broadcast_id, not both', path: ['broadcast_id'] })
  .optional();

export const LegacyPurgeQueueRpc = queueRpc('purge-legacy', queueRequest({ body: LegacyPurgeBody }), z.null());
export type LegacyPurgeQueueRequest = z.infer<typeof LegacyPurgeQueueRpc.request>;

export const LegacyPurgeQueueRoute = defineRoute({
  operationId: 'purgeQueue',
  method: 'DELETE',
  path: '/queue/purge',
  tag: 'queue',
  summary: 'Purge the send queue (older form of POST /message/queues/purge); 204',
  description: PURGE_DESCRIPTION,
  body: LegacyPurgeBody,
  phone: 'optional',
  role: 'admin',
  rpc: LegacyPurgeQueueRpc,
  successStatus: 204,
  audit: { action: 'queue.purged', target: 'x-phone' },
});
