import type { EventName } from '../../events/event-names';

/**
 * The triggers (`Triggers` of @periskope/types) this service runs, and the event of the catalogue that
 * fires each. The hosted names that differ: `reaction.added` is our `reaction.created`, `task.due` our
 * `task.reminder`.
 */
export const TRIGGER_EVENTS = {
  'message.created': 'message.created',
  'message.updated': 'message.updated',
  'message.deleted': 'message.deleted',
  'message.flagged': 'message.flagged',
  'message.unflagged': 'message.unflagged',
  'reaction.added': 'reaction.created',
  'ticket.created': 'ticket.created',
  'ticket.updated': 'ticket.updated',
  'ticket.deleted': 'ticket.deleted',
  'chat.created': 'chat.created',
  'chat.label.updated': 'chat.label.updated',
  'task.created': 'task.created',
  'task.due': 'task.reminder',
} as const satisfies Record<string, EventName>;
export type WorkflowTrigger = keyof typeof TRIGGER_EVENTS;
export const WORKFLOW_TRIGGERS = Object.keys(TRIGGER_EVENTS) as WorkflowTrigger[];

/** Hosted triggers with no event here yet: refused with 422 "not supported here yet". */
export const UNSUPPORTED_TRIGGERS = ['ticket.closed', 'ticket.due', 'chat.closed'] as const;

/** The triggers an event fires (usually one). */
export function triggersOf(eventType: string): WorkflowTrigger[] {
  return WORKFLOW_TRIGGERS.filter((t) => TRIGGER_EVENTS[t] === eventType);
}

/** Triggers whose event carries a message (the loop guard's from_me check applies). */
export const MESSAGE_TRIGGERS: readonly WorkflowTrigger[] = ['message.created', 'message.updated', 'message.deleted', 'message.flagged', 'message.unflagged'];
