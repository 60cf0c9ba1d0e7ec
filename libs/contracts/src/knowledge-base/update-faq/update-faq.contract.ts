import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { FileInputSchema } from '../entry/attachment-input.schema';
import { ContextIdParams, KbEntrySchema } from '../entry/kb-entry.schema';

export const UpdateFaqBody = z
  .object({
    question: z.string().min(1, 'question must not be empty').optional(),
    answer: z.string().min(1, 'answer must not be empty').optional(),
    is_active: z.boolean({ error: 'is_active must be a boolean' }).optional(),
    /** Replaces the entry's attachments: URLs kept as references; [] or null removes them all. */
    attachments: z
      .array(z.url({ protocol: /^https?$/, error: 'each attachment must be an http or https URL' }))
      .max(20)
      .nullable()
      .optional(),
    /** Adds one stored attachment (same rules as on create). */
    attachment: FileInputSchema.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'nothing to change: give at least one of question, answer, is_active, attachments, attachment',
  });
export type UpdateFaqBody = z.infer<typeof UpdateFaqBody>;

export const UpdateFaqRpc = defineRpc({
  subject: 'knowledge-base.v1.faq.update',
  service: 'knowledge-base',
  request: z.object({ ctx: RequestContextSchema, params: ContextIdParams, body: UpdateFaqBody }),
  response: KbEntrySchema,
});
export type UpdateFaqRequest = z.infer<typeof UpdateFaqRpc.request>;

export const UpdateFaqRoute = defineRoute({
  operationId: 'updateFaq',
  method: 'PATCH',
  path: '/knowledge-base/faq/{context_id}',
  tag: 'knowledge-base',
  summary: 'Change an FAQ (or self-learned) entry; a changed question or answer gets a new embedding',
  params: ContextIdParams,
  body: UpdateFaqBody,
  phone: 'none',
  rpc: UpdateFaqRpc,
  successStatus: 200,
  response: KbEntrySchema,
  upload: { fileField: 'attachment', booleanFields: ['is_active'], timeoutMs: 30_000 },
});
