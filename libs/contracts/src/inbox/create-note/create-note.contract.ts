import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { NoteSchema } from '../../events/note/note.schema';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';

export const CreateNoteBody = z
  .object({
    chat_id: ChatIdSchema,
    message: z
      .string({ error: 'message must be a string' })
      .min(1, 'message must not be empty')
      .max(10_000, 'message is at most 10000 characters'),
    /** Media notes are not kept yet: a note with media is refused rather than kept without it. */
    media: z.unknown().optional(),
    reply_to: z
      .string({ error: 'reply_to must be a string' })
      .min(1, 'reply_to must not be empty')
      .max(512, 'reply_to is too long')
      .optional(),
  })
  .superRefine((b, ctx) => {
    if (b.media !== undefined)
      ctx.addIssue({ code: 'custom', path: ['media'], message: 'media notes are not supported yet: send the note as message' });
  });

/** `{ success, message, data }` as the public client types it; `data` is the note created. */
export const CreateNoteResponse = z.object({ success: z.literal(true), message: z.string(), data: NoteSchema });

export const CreateNoteRpc = defineRpc({
  subject: 'inbox.v1.notes.create',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, headers: z.record(z.string(), z.string()).optional(), body: CreateNoteBody }),
  response: CreateNoteResponse,
});
export type CreateNoteRequest = z.infer<typeof CreateNoteRpc.request>;

export const CreateNoteRoute = defineRoute({
  operationId: 'createNote',
  method: 'POST',
  path: '/note/create',
  tag: 'chats',
  summary: 'Leave a private note on a chat',
  description:
    "An internal note on a chat that a phone within reach has (x-phone, else the token's phones); it is never sent to the " +
    'network. A chat out of reach is 404. reply_to must name a message of the chat (422 otherwise). Text notes only: a note ' +
    'with media is 422. Emits note.created. An Idempotency-Key header makes a repeat of the request answer the note ' +
    'it made; another request under the same key is 422.',
  body: CreateNoteBody,
  phone: 'optional',
  headers: ['idempotency-key'],
  rpc: CreateNoteRpc,
  successStatus: 200,
  response: CreateNoteResponse,
});
