import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { defineRoute } from '../../http/define-route';
import { queueRequest, queueRpc, SendAnswerSchema } from '../job/queue-job.schema';
import { CONTENT_MESSAGE, hasContent, MessageContentFields } from '../send-message/send-message.contract';

/** Most recipients in one broadcast call. */
export const MAX_BROADCAST_CHATS = 10_000;

export const BroadcastMessageBody = z
  .object({
    chat_ids: z.array(ChatIdSchema).min(1).max(MAX_BROADCAST_CHATS),
    ...MessageContentFields,
    /** When the first message may go (ISO 8601); now when absent. */
    scheduled_at: z.iso.datetime({ offset: true }).optional(),
    /** Seconds between consecutive messages of the broadcast, on top of the phone's pacing. */
    delay: z.number().min(0).max(86_400).optional(),
    /** Per-chat template values: `{{name}}` in message is replaced by values.name for that chat. */
    variables: z
      .array(z.object({ chat_id: ChatIdSchema, values: z.record(z.string(), z.string()) }))
      .max(MAX_BROADCAST_CHATS)
      .optional(),
  })
  .refine(hasContent, CONTENT_MESSAGE);
export type BroadcastMessageBody = z.infer<typeof BroadcastMessageBody>;

export const BroadcastAnswerSchema = z.object({
  broadcast_id: z.uuid(),
  jobs: z.array(SendAnswerSchema.extend({ chat_id: z.string() })),
});
export type BroadcastAnswer = z.infer<typeof BroadcastAnswerSchema>;

export const BroadcastMessageRpc = queueRpc('broadcast', queueRequest({ body: BroadcastMessageBody }), BroadcastAnswerSchema);
export type BroadcastMessageRequest = z.infer<typeof BroadcastMessageRpc.request>;

export const BroadcastMessageRoute = defineRoute({
  operationId: 'broadcastMessage',
  method: 'POST',
  path: '/message/broadcast',
  tag: 'message',
  summary: 'Queue one message to many chats under one broadcast_id',
  description:
    'x-phone is required (one phone sends the whole broadcast). Answers `broadcast_id` and one job per chat, in the order of chat_ids.',
  body: BroadcastMessageBody,
  phone: 'required',
  rpc: BroadcastMessageRpc,
  successStatus: 200,
  response: BroadcastAnswerSchema,
  headers: ['idempotency-key'],
});
