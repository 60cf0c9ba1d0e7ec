import { SendMessageRpc } from '@mapi/contracts';
import { ActionError, actionCtx, idempotencyKeyOf, type ActionContext, type RpcCaller } from './action-context';

/**
 * send_message_to_chat: queued through the queue service's send RPC (so pacing, purge and the phone's
 * queue apply), with the step's idempotency key: a retried or re-claimed step gets the first job back,
 * never a second message. `trigger_chat` (or no chat_id) is the event's chat, sent from the event's phone.
 */
export async function sendMessage(rpc: RpcCaller, c: ActionContext): Promise<Record<string, unknown>> {
  const target = c.metadata.chat_id;
  const chatId = !target || target === 'trigger_chat' ? c.run.chat_id : String(target);
  if (!chatId) throw new ActionError('the event has no chat to send to (chat_id trigger_chat)');
  const answer = await rpc.call(SendMessageRpc, {
    ctx: actionCtx(c.run),
    headers: { 'idempotency-key': idempotencyKeyOf(c) },
    body: { chat_id: chatId, message: String(c.metadata.message) },
  });
  return {
    message_details: { queue_id: answer.queue_id, queue_position: Number(answer.queue_position), unique_id: answer.unique_id },
    chat_id: chatId,
  };
}
