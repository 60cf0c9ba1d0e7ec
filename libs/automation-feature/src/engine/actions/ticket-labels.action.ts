import { GetTicketRpc, UpdateTicketRpc } from '@mapi/contracts';
import { ActionError, actionCtx, type ActionContext, type RpcCaller } from './action-context';
import { ticketOf } from './tickets.action';

/**
 * add_ticket_label / remove_ticket_label on the ticket this run created, else the trigger ticket, else
 * the trigger message's: the ticket's labels are read and the changed set written through the inbox's
 * update RPC (labels are case-insensitive names). Adding a label it has, or removing one it lacks,
 * writes nothing, so a repeated step is harmless.
 */
export async function changeTicketLabels(rpc: RpcCaller, c: ActionContext, mode: 'add' | 'remove'): Promise<Record<string, unknown>> {
  const ticketId = ticketOf(c);
  if (!ticketId) throw new ActionError('no ticket to label: the run made none and the event names none');
  const ctx = actionCtx(c.run);
  const info = await rpc.call(GetTicketRpc, { ctx, params: { ticket_id: ticketId } });
  const current = info.ticket.ticket_labels
    .split(',')
    .map((l) => l.trim().toLowerCase())
    .filter(Boolean);
  const given = (c.metadata.labels as string[]).map((l) => l.trim().toLowerCase());
  const next = mode === 'add' ? [...new Set([...current, ...given])] : current.filter((l) => !given.includes(l));
  if (next.length === current.length && next.every((l) => current.includes(l)))
    return { ticket_details: { ticket_id: ticketId, labels: next, changed: false } };
  await rpc.call(UpdateTicketRpc, { ctx, params: { ticket_id: ticketId }, body: { labels: next.join(',') } });
  return { ticket_details: { ticket_id: ticketId, labels: next, changed: true } };
}
