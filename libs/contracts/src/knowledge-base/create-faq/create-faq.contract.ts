import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { FileInputSchema } from '../entry/attachment-input.schema';
import { KbEntrySchema } from '../entry/kb-entry.schema';

export const CreateFaqBody = z.object({
  question: z.string({ error: 'question is required' }).min(1, 'question must not be empty'),
  answer: z.string({ error: 'answer is required' }).min(1, 'answer must not be empty'),
  is_active: z.boolean({ error: 'is_active must be a boolean' }).default(false),
  /** One attachment stored through the media storage (spec 4.2). */
  attachment: FileInputSchema.optional(),
  /** Older clients (wider API): attachment URLs, kept as references. */
  attachments: z
    .array(z.url({ protocol: /^https?$/, error: 'each attachment must be an http or https URL' }))
    .max(20)
    .optional(),
});
export type CreateFaqBody = z.infer<typeof CreateFaqBody>;

export const CreateFaqRpc = defineRpc({
  subject: 'knowledge-base.v1.faq.create',
  service: 'knowledge-base',
  request: z.object({ ctx: RequestContextSchema, body: CreateFaqBody }),
  response: KbEntrySchema,
});
export type CreateFaqRequest = z.infer<typeof CreateFaqRpc.request>;

export const CreateFaqRoute = defineRoute({
  operationId: 'createFaq',
  method: 'POST',
  path: '/knowledge-base/faq/create',
  tag: 'knowledge-base',
  summary: 'Create an FAQ entry (its embedding is computed by the embedding worker)',
  description:
    'Answers the created entry (type faq). `embedding` is null when the embedding worker has not finished within ' +
    'KB_CREATE_WAIT_FOR_EMBEDDING_MS (1.5 s by default); it is filled within seconds after. JSON, or multipart/form-data with ' +
    'text parts question, answer, is_active and the attachment file in the part `attachment.file` (or `attachment`, `file`).',
  body: CreateFaqBody,
  phone: 'none',
  rpc: CreateFaqRpc,
  successStatus: 200,
  response: KbEntrySchema,
  upload: { fileField: 'attachment', booleanFields: ['is_active'], timeoutMs: 30_000 },
});
