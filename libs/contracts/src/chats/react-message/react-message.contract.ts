import { z } from 'zod';
import { defineRpc } from '../../rpc/define-rpc';
import { messageActionRequest, messageActionRoute } from '../message-ref/message-ref';

export const ReactMessageBody = z.object({
  /** One emoji; '' takes the phone's reaction back. */
  reaction: z.string().max(32, 'reaction must be one emoji (or empty to take it back)'),
});
export const ReactMessageRpc = defineRpc({
  subject: 'chats.v1.message.react',
  service: 'chats',
  request: messageActionRequest({ body: ReactMessageBody }),
  response: z.null(),
});
export type ReactMessageRequest = z.infer<typeof ReactMessageRpc.request>;

export const ReactMessageRoute = messageActionRoute({
  name: 'react',
  operationId: 'reactToMessage',
  summary: 'React to a message with an emoji',
  description:
    'The phone reacts with the emoji (an empty string takes its reaction back). The message then has has_reaction true, the ' +
    "reaction is listed by GET /reactions, and reaction.created (the phone's first reaction to it) or reaction.updated fires. " +
    'Reacting with the emoji that already stands changes nothing. A deleted message is 422 naming message_id; so is a reaction ' +
    "of a Cloud API phone outside the chat's 24-hour customer-service window (a reaction is a free-form message).",
  rpc: ReactMessageRpc,
  body: ReactMessageBody,
});
