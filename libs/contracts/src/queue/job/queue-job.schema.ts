import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRpc } from '../../rpc/define-rpc';

/** States a send job can be in (BullMQ's, with `prioritized` folded into `waiting` for callers). */
export const QUEUE_JOB_STATUSES = ['waiting', 'delayed', 'active', 'completed', 'failed'] as const;
export const QueueJobStatusSchema = z.enum(QUEUE_JOB_STATUSES);
export type QueueJobStatus = z.infer<typeof QueueJobStatusSchema>;

/**
 * A send job as callers see it: the shape of a BullMQ job (../shared/reference/wider-api.md "Queue jobs"), plus what the
 * network answered once it was submitted (`unique_id`, `message_id`).
 */
export const QueueJobSchema = z.object({
  id: z.string(),
  status: z.string(),
  data: z.object({ chat_id: z.string(), body: z.string().nullable() }).loose(),
  attemptsMade: z.number().int(),
  attemptsStarted: z.number().int(),
  addedTimestamp: z.number().nullable(),
  processedTimestamp: z.number().nullable(),
  finishedTimestamp: z.number().nullable(),
  message_id: z.string().nullable(),
  unique_id: z.string().nullable(),
  broadcast_id: z.string().nullable(),
  phone_id: z.string(),
  failed_reason: z.string().nullable(),
  stacktrace: z.array(z.string()),
});
export type QueueJob = z.infer<typeof QueueJobSchema>;

/** The answer to one queued message: `queue_position` is a numeric string as in the public client's types. */
export const SendAnswerSchema = z.object({
  queue_id: z.uuid(),
  queue_position: z.string(),
  /** The network's id of the message: null until the job is submitted (see docs/services/queue.md). */
  /** the network id the message will have (derived from the phone and queue_id) */
  unique_id: z.string(),
});
export type SendAnswer = z.infer<typeof SendAnswerSchema>;

/** Shared request shape of the queue service's RPCs (the gateway forwards ctx, params, query, body, headers). */
export const queueRequest = <S extends z.ZodRawShape>(shape: S) =>
  z.object({ ctx: RequestContextSchema, headers: z.record(z.string(), z.string()).optional(), ...shape }).loose();

export const queueRpc = <Req extends z.ZodType, Res extends z.ZodType>(name: string, request: Req, response: Res) =>
  defineRpc({ subject: `queue.v1.${name}`, service: 'queue', request, response });
