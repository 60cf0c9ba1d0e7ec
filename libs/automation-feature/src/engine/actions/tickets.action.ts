import { CreateNoteRpc, CreateTicketRpc, UpdateTicketRpc, durationMs } from '@mapi/contracts';
import { ActionError, actionCtx, idempotencyKeyOf, type ActionContext, type RpcCaller } from './action-context';

/**
 * create_ticket on the event's chat, through the inbox's create RPC with the step's idempotency key
 * (a repeated step answers the ticket the first made). The trigger message is quoted (attached) when
 * the event is a message; `due_in` counts from the run's start, so every attempt asks the same.
 */
export async function createTicket(rpc: RpcCaller, c: ActionContext): Promise<Record<string, unknown>> {
  const chatId = c.run.chat_id;
  if (!chatId) throw new ActionError('the event has no chat to raise a ticket on');
  const m = c.metadata as {
    subject?: string | null;
    assignee?: { email: string | null };
    priority?: string;
    status?: 'open' | 'inprogress' | 'closed';
    labels?: string[];
    due_in?: string | null;
  };
  const due = m.due_in ? durationMs(m.due_in) : null;
  const quoted =
    c.event.event_type.startsWith('message.') && typeof c.event.data.message_id === 'string' ? c.event.data.message_id : undefined;
  const priority = m.priority && m.priority !== '0' ? Number(m.priority) : undefined;
  const info = await rpc.call(CreateTicketRpc, {
    ctx: actionCtx(c.run),
    headers: { 'idempotency-key': idempotencyKeyOf(c) },
    body: {
      chat_id: chatId,
      subject:
        m.subject?.trim() ||
        (typeof c.event.data.body === 'string' && c.event.data.body.trim()
          ? c.event.data.body.trim().slice(0, 500)
          : 'Raised by a workflow'),
      ...(m.assignee?.email ? { assignee: m.assignee.email } : {}),
      ...(priority ? { priority } : {}),
      ...(m.status ? { status: m.status } : {}),
      ...(m.labels?.length ? { labels: m.labels.join(',') } : {}),
      ...(due !== null ? { due_date: new Date(c.run.started_at.getTime() + due).toISOString() } : {}),
      ...(quoted ? { quoted_message_id: quoted } : {}),
    },
  });
  return { ticket_details: info.ticket };
}

/** The ticket a close_ticket acts on: one this run created, else the trigger ticket, else the trigger message's ticket. */
export function ticketOf(c: ActionContext): string | null {
  for (const s of [...c.earlier].reverse()) {
    const made = (s.result as { ticket_details?: { ticket_id?: string } } | null)?.ticket_details?.ticket_id;
    if (s.action_type === 'create_ticket' && s.status === 'completed' && made) return made;
  }
  if (c.event.event_type.startsWith('ticket.') && typeof c.event.data.ticket_id === 'string') return c.event.data.ticket_id;
  return typeof c.event.data.message_ticket_id === 'string' ? c.event.data.message_ticket_id : null;
}

/**
 * close_ticket: sets the ticket closed through the inbox (closing a closed ticket changes nothing);
 * a `closing_note` becomes a private note on its chat, with the step's idempotency key.
 */
export async function closeTicket(rpc: RpcCaller, c: ActionContext): Promise<Record<string, unknown>> {
  const ticketId = ticketOf(c);
  if (!ticketId) throw new ActionError('no ticket to close: the run made none and the event names none');
  const ctx = actionCtx(c.run);
  const info = await rpc.call(UpdateTicketRpc, { ctx, params: { ticket_id: ticketId }, body: { status: 'closed' } });
  const note = typeof c.metadata.closing_note === 'string' ? c.metadata.closing_note.trim() : '';
  if (note) {
    await rpc.call(CreateNoteRpc, {
      ctx,
      headers: { 'idempotency-key': idempotencyKeyOf(c) },
      body: { chat_id: info.ticket.chat_id, message: note },
    });
  }
  return { ticket_details: info.ticket };
}
