import { z } from 'zod';

/**
 * Session commands that act on a message already on the network (edit, delete for everyone, react,
 * pin, forward). The message is named by its key as the network knows it: the chat, its unique id,
 * whether the acting phone sent it, and its sender (the participant, in groups).
 */
export const MessageKeySchema = z.object({
  chat_id: z.string().min(1),
  unique_id: z.string().min(1),
  from_me: z.boolean(),
  /** The sender's contact id (`<digits>@c.us`): the participant of a group message. */
  sender_phone: z.string().min(1),
});
export type MessageKey = z.infer<typeof MessageKeySchema>;

/** Who sent a message (its `performed_by`: a member's email or a token's id, performedByOf); 320 characters at most. */
export const PerformedBySchema = z.string().min(1).max(320);

/** What a forward carries: the message's text (or caption) and its stored media (a subset of a send's content). */
export const ForwardContentSchema = z.object({
  text: z.string().optional(),
  media: z.object({ type: z.string().optional(), url: z.string().optional(), filename: z.string(), mimetype: z.string() }).optional(),
});

export const MESSAGE_COMMANDS = [
  /** Replaces the text (or caption) of a message the phone sent. Repeating it with the same body changes nothing. */
  z.object({ cmd: z.literal('message-edit'), key: MessageKeySchema, body: z.string().min(1) }),
  /** Deletes a message the phone sent, for everyone. Deleting it again changes nothing. */
  z.object({ cmd: z.literal('message-delete'), key: MessageKeySchema }),
  /** The phone's reaction to a message ('' takes it back); the latest one stands, so a repeat changes nothing. */
  z.object({ cmd: z.literal('message-react'), key: MessageKeySchema, reaction: z.string() }),
  /** Pins (true) or unpins a message in its chat. */
  z.object({ cmd: z.literal('message-pin'), key: MessageKeySchema, pin: z.boolean() }),
  /** Forwards a message to `chat_id`; `sent_message_id` makes a repeat a no-op and `performed_by` names the sender, as for `send`. */
  z.object({
    cmd: z.literal('message-forward'),
    key: MessageKeySchema,
    chat_id: z.string().min(1),
    content: ForwardContentSchema,
    sent_message_id: z.string().min(1),
    performed_by: PerformedBySchema.nullable().optional(),
  }),
] as const;
