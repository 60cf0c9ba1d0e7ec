import { z } from 'zod';
import { defineRoute } from '../../http/define-route';
import { QueueJobSchema, queueRequest, queueRpc } from '../job/queue-job.schema';

export const BroadcastStatusQuery = z.object({ broadcast_id: z.string().min(1, 'broadcast_id is required').max(200) });

export const BroadcastStatusSchema = z.object({
  broadcast_id: z.string(),
  phone_id: z.string(),
  total: z.number().int(),
  pending: z.number().int(),
  active: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
  /** Jobs of the broadcast that a purge removed before they were sent. */
  purged: z.number().int(),
  jobs: z.array(QueueJobSchema),
});
export type BroadcastStatus = z.infer<typeof BroadcastStatusSchema>;

export const BroadcastStatusRpc = queueRpc('broadcast.status', queueRequest({ query: BroadcastStatusQuery }), BroadcastStatusSchema);
export type BroadcastStatusRequest = z.infer<typeof BroadcastStatusRpc.request>;

export const BroadcastStatusRoute = defineRoute({
  operationId: 'getBroadcastStatus',
  method: 'GET',
  path: '/queue/broadcast',
  tag: 'queue',
  summary: 'Progress of one broadcast',
  description:
    'Counts per state and the jobs (at most the first 1000) of the broadcast on the x-phone phone; 404 when the phone has no such broadcast.',
  query: BroadcastStatusQuery,
  phone: 'required',
  rpc: BroadcastStatusRpc,
  successStatus: 200,
  response: BroadcastStatusSchema,
});
