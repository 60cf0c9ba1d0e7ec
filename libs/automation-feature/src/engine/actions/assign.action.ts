import { UpdateChatRpc, UpdateTicketRpc } from '@mapi/contracts';
import { ActionError, actionCtx, type ActionContext, type RpcCaller } from './action-context';
import { ticketOf } from './tickets.action';

const emailOf = (c: ActionContext) => (c.metadata.assignee as { email?: string | null } | undefined)?.email ?? null;

/**
 * assign_ticket: sets the assignee (null: unassigns) of the ticket this run created, else the trigger
 * ticket, else the trigger message's, through the inbox's update RPC. Setting the assignee it has
 * changes nothing, so a repeated step is harmless.
 */
export async function assignTicket(rpc: RpcCaller, c: ActionContext): Promise<Record<string, unknown>> {
  const ticketId = ticketOf(c);
  if (!ticketId) throw new ActionError('no ticket to assign: the run made none and the event names none');
  const info = await rpc.call(UpdateTicketRpc, { ctx: actionCtx(c.run), params: { ticket_id: ticketId }, body: { assignee: emailOf(c) } });
  return { ticket_details: info.ticket };
}

/**
 * assign_chat: sets the event's chat's assigned_to (null: unassigns) through the inbox's chat update
 * RPC (the organization's value, shared by its phones). Idempotent by itself.
 */
export async function assignChat(rpc: RpcCaller, c: ActionContext): Promise<Record<string, unknown>> {
  const chatId = c.run.chat_id;
  if (!chatId) throw new ActionError('the event has no chat to assign');
  const chat = await rpc.call(UpdateChatRpc, { ctx: actionCtx(c.run), params: { chat_id: chatId }, body: { assigned_to: emailOf(c) } });
  return { chat_details: { chat_id: chatId, assigned_to: chat.assigned_to ?? null, org_id: c.run.org_id } };
}
