import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute, type RouteContract } from '../../http/define-route';
import type { RpcContract } from '../../rpc/define-rpc';

/**
 * The `{message_id}` of GET /message/{message_id} and the message actions: a message id
 * (`<from_me>_<chat_id>_<unique_id>`) or the queue id of a send (a UUID, the message's `sent_message_id`).
 */
export const MessageRefParams = z.object({
  message_id: z.string().min(1, 'message_id must not be empty').max(512, 'message_id is too long'),
});

/** The request of a message action's RPC: ctx, the message's id, and its body. */
export const messageActionRequest = <S extends z.ZodRawShape>(shape: S) =>
  z.object({ ctx: RequestContextSchema, params: MessageRefParams, ...shape });

/** Said of every message action route: how the message and the acting phone are found. */
export const MESSAGE_ACTION_NOTE =
  'The message is found by its message_id or by the queue id of its send (once sent), among the copies of the phones ' +
  "within reach (the x-phone phone, else the token's phones); that phone acts through its session. A message no phone " +
  "within reach holds is 404 NOT_FOUND_ERROR (another organization's too); a disconnected phone is 400 ERROR.";

/** A message action's route: POST /message/{message_id}/<name>, answered 204 with no content (as the public client types it). */
export function messageActionRoute(over: {
  name: string;
  operationId: string;
  summary: string;
  description: string;
  rpc: RpcContract;
  body?: z.ZodType;
  headers?: readonly string[];
}): RouteContract {
  const { name, description, ...rest } = over;
  return defineRoute({
    ...rest,
    method: 'POST',
    path: `/message/{message_id}/${name}`,
    tag: 'message',
    description: `${description} ${MESSAGE_ACTION_NOTE}`,
    params: MessageRefParams,
    phone: 'optional',
    successStatus: 204,
  });
}
