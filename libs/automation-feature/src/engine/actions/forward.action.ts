import { ForwardMessageRpc } from '@mapi/contracts';
import { ActionError, actionCtx, idempotencyKeyOf, type ActionContext, type RpcCaller } from './action-context';
import { messageOf } from './message-of';

/**
 * forward_message: the event's phone forwards the trigger message (or the trigger ticket's quoted
 * message) to each chat of `chat_id` ('a@c.us;b@g.us') through the chats service, with the step's
 * idempotency key: a retried or re-claimed step forwards nothing twice.
 */
export async function forwardMessage(rpc: RpcCaller, c: ActionContext): Promise<Record<string, unknown>> {
  const messageId = messageOf(c);
  if (!messageId) throw new ActionError('no message to forward: the event names none');
  const targets = [
    ...new Set(
      String(c.metadata.chat_id)
        .split(';')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  await rpc.call(ForwardMessageRpc, {
    ctx: actionCtx(c.run),
    params: { message_id: messageId },
    headers: { 'idempotency-key': idempotencyKeyOf(c) },
    body: { forward_chat_ids: targets },
  });
  return Object.fromEntries(targets.map((t) => [t, true]));
}
