import { z } from 'zod';
import { defineRoute } from '../../http/define-route';
import { queueRequest, queueRpc } from '../job/queue-job.schema';

/** `{active, failed, completed, is_running, pending}` (../shared/reference/wider-api.md), plus the parts of pending. */
export const QueueStatusSchema = z.object({
  phone_id: z.string(),
  active: z.number().int(),
  failed: z.number().int(),
  completed: z.number().int(),
  is_running: z.boolean(),
  pending: z.number().int(),
  waiting: z.number().int(),
  delayed: z.number().int(),
});
export type QueueStatus = z.infer<typeof QueueStatusSchema>;

export const QueueStatusRpc = queueRpc('status', queueRequest({}), QueueStatusSchema);
export type QueueStatusRequest = z.infer<typeof QueueStatusRpc.request>;

export const QueueStatusRoute = defineRoute({
  operationId: 'getQueueStatus',
  method: 'GET',
  path: '/queue',
  tag: 'queue',
  summary: "Status counts of the phone's send queue",
  description:
    "`pending` = waiting + delayed (not yet submitted); `is_running` = a send worker serves the phone's queue, or the send workers are running (a phone without a worker gets one within QUEUE_PHONE_SCAN_MS of a job).",
  phone: 'required',
  rpc: QueueStatusRpc,
  successStatus: 200,
  response: QueueStatusSchema,
});
