import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { defineRoute } from '../../http/define-route';
import { queueRequest, queueRpc, SendAnswerSchema } from '../job/queue-job.schema';
import { MessageTemplateSchema } from '../../phones/cloud-api/cloud-api-template';

/** What a message carries (../shared/reference/wider-api.md "Send message"); at least one of message, media, poll. */
export const MessageContentFields = {
  message: z.string().min(1).max(65_536).optional(),
  media: z
    .object({
      type: z.enum(['document', 'image', 'video', 'audio']).optional(),
      url: z.url().optional(),
      filedata: z.string().min(1).optional(),
      filename: z.string().min(1).max(255),
      mimetype: z.string().min(1).max(255),
    })
    .refine((m) => Boolean(m.url) !== Boolean(m.filedata), { message: 'media needs exactly one of url or filedata' })
    .optional(),
  reply_to: z.string().min(1).max(512).optional(),
  poll: z
    .object({
      pollName: z.string().min(1).max(255),
      pollOptions: z.array(z.string().min(1).max(100)).min(2).max(12),
      options: z.object({ allowMultipleAnswers: z.boolean().optional(), pollId: z.string().optional() }).optional(),
    })
    .optional(),
  options: z.object({ hide_url_preview: z.boolean().optional() }).optional(),
  /** An approved template of a Cloud API phone (docs/services/cloud-api.md), sent alone. */
  template: MessageTemplateSchema.optional(),
};

/** At least one of message, media, poll; or a template, alone. */
const hasContent = (b: { message?: string; media?: unknown; poll?: unknown; template?: unknown }) =>
  b.template !== undefined
    ? b.message === undefined && b.media === undefined && b.poll === undefined
    : b.message !== undefined || b.media !== undefined || b.poll !== undefined;
const CONTENT_MESSAGE = { message: 'send at least one of message, media or poll, or a template alone', path: ['message'] };

export const SendMessageBody = z.object({ chat_id: ChatIdSchema, ...MessageContentFields }).refine(hasContent, CONTENT_MESSAGE);
export type SendMessageBody = z.infer<typeof SendMessageBody>;

export const SendMessageRpc = queueRpc('send', queueRequest({ body: SendMessageBody }), SendAnswerSchema);
export type SendMessageRequest = z.infer<typeof SendMessageRpc.request>;

export const SendMessageRoute = defineRoute({
  operationId: 'sendMessage',
  method: 'POST',
  path: '/message/send',
  tag: 'message',
  summary: 'Queue a message for sending through a phone',
  description:
    "Answers at once with the job (`queue_id`, its position among the phone's unsent jobs, `unique_id` the network id the message will have). " +
    'Without x-phone, a connected phone of the token that has the chat sends it. An `Idempotency-Key` header makes a repeat return the first answer.',
  body: SendMessageBody,
  phone: 'optional',
  rpc: SendMessageRpc,
  successStatus: 200,
  response: SendAnswerSchema,
  headers: ['idempotency-key'],
});

export { hasContent, CONTENT_MESSAGE };
