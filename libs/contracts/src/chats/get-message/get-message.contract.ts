import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MessageSchema } from '../message/message.schema';
import { MessageRefParams } from '../message-ref/message-ref';

export const GetMessageRpc = defineRpc({
  subject: 'chats.v1.message.get',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, params: MessageRefParams }),
  response: MessageSchema,
});
export type GetMessageRequest = z.infer<typeof GetMessageRpc.request>;

export const GetMessageRoute = defineRoute({
  operationId: 'getMessage',
  method: 'GET',
  path: '/message/{message_id}',
  tag: 'message',
  summary: 'Get a message by its message_id or the queue id of its send',
  description:
    "The message (2.1) as the x-phone phone holds it, else as a phone within the token's reach does. A queue id answers " +
    'only once its job was sent (the sent message keeps it as sent_message_id): a job still waiting in the queue, an unknown ' +
    "id and another organization's message are all 404 NOT_FOUND_ERROR.",
  params: MessageRefParams,
  phone: 'optional',
  rpc: GetMessageRpc,
  successStatus: 200,
  response: MessageSchema,
});
