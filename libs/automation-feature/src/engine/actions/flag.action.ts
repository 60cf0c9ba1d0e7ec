import { FlagMessageRpc } from '@mapi/contracts';
import { ActionError, actionCtx, type ActionContext, type RpcCaller } from './action-context';
import { messageOf } from './message-of';

/**
 * flag_message / unflag_message: sets the flag of the trigger message (or the trigger ticket's quoted
 * message) through the chats service, which emits message.flagged / message.unflagged. A message
 * already in that state changes nothing and emits nothing, so a repeated step is harmless.
 */
export async function flagMessage(rpc: RpcCaller, c: ActionContext, flag: boolean): Promise<Record<string, unknown>> {
  const messageId = messageOf(c);
  if (!messageId) throw new ActionError(`no message to ${flag ? 'flag' : 'unflag'}: the event names none`);
  const message = await rpc.call(FlagMessageRpc, { ctx: actionCtx(c.run), params: { message_id: messageId }, body: { flag } });
  return { message_details: { message_id: message.message_id, chat_id: message.chat_id, flag_status: message.flag_status } };
}
