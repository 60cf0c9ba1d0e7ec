import { z } from 'zod';
import { defineRoute } from '../../http/define-route';
import { QueueJobSchema, QueueJobStatusSchema, queueRequest, queueRpc } from '../job/queue-job.schema';

export const MAX_JOBS_LIMIT = 1_000;

const whole = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} should be at least ${min}`)
    .max(max, `${name} should be less than or equal to ${max}`);

/** Filters of a job listing: one status (all when absent), one broadcast, one job. Newest first. */
const filters = {
  status: QueueJobStatusSchema.optional(),
  broadcast_id: z.string().min(1).max(200).optional(),
  queue_id: z.uuid().optional(),
  offset: whole('offset', 0, 1_000_000).default(0),
  limit: whole('limit', 1, MAX_JOBS_LIMIT).default(100),
};
export const ListJobsQuery = z.object(filters);
export const ListJobsBody = z.object(filters).optional();

export const ListJobsRpc = queueRpc(
  'jobs.list',
  queueRequest({ query: ListJobsQuery.optional(), body: ListJobsBody }),
  z.array(QueueJobSchema),
);
export type ListJobsRequest = z.infer<typeof ListJobsRpc.request>;

export const ListQueueJobsRoute = defineRoute({
  operationId: 'fetchQueueJobs',
  method: 'GET',
  path: '/queue/jobs',
  tag: 'queue',
  summary: "Jobs of the phone's send queue, newest first",
  description:
    'Filters: status (waiting, delayed, active, completed, failed), broadcast_id, queue_id; offset and limit (default 100, at most 1000).',
  query: ListJobsQuery,
  phone: 'required',
  rpc: ListJobsRpc,
  successStatus: 200,
  response: z.array(QueueJobSchema),
});

export const ListMessageQueuesRoute = defineRoute({
  operationId: 'listMessageQueues',
  method: 'POST',
  path: '/message/queues',
  tag: 'queue',
  summary: "Jobs of the phone's send queue (body filters), newest first",
  description: 'Same as GET /queue/jobs with the filters in the body.',
  body: ListJobsBody,
  phone: 'required',
  rpc: ListJobsRpc,
  successStatus: 200,
  response: z.array(QueueJobSchema),
});
