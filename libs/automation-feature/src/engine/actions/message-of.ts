import type { ActionContext } from './action-context';

/**
 * The message a message action (flag, forward) acts on: the trigger message (message triggers), the
 * message reacted to (reaction.added), the waiting message (sla.breached), or the message a trigger ticket quotes (ticket triggers).
 */
export function messageOf(c: ActionContext): string | null {
  const d = c.event.data;
  const t = c.event.event_type;
  if ((t.startsWith('message.') || t.startsWith('reaction.') || t === 'sla.breached') && typeof d.message_id === 'string')
    return d.message_id;
  if (t.startsWith('ticket.') && typeof d.quoted_message_id === 'string') return d.quoted_message_id;
  return null;
}
