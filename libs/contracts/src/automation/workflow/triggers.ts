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
  'ticket.closed': 'ticket.updated',
  'chat.created': 'chat.created',
  'chat.label.updated': 'chat.label.updated',
  'task.created': 'task.created',
  'task.due': 'task.reminder',
  // ours (issue 34): an SLA deadline passed with no reply (analytics service); docs/services/analytics.md
  'sla.breached': 'sla.breached',
} as const satisfies Record<string, EventName>;
export type WorkflowTrigger = keyof typeof TRIGGER_EVENTS;
export const WORKFLOW_TRIGGERS = Object.keys(TRIGGER_EVENTS) as WorkflowTrigger[];

/**
 * Hosted triggers with no event here yet: refused with 422 "not supported here yet". `ticket.due`:
 * nothing fires at a ticket's due_date (only task reminders are timed); `chat.closed`: chats have no
 * open/closed state here.
 */
export const UNSUPPORTED_TRIGGERS = ['ticket.due', 'chat.closed'] as const;

/** What a derived trigger reads of its event. */
export interface TriggerEventView {
  data?: unknown;
  previous_attributes?: Record<string, unknown> | null;
}

/**
 * Triggers derived from a broader event: they fire only when this holds. `ticket.closed` is a
 * `ticket.updated` whose status became closed (previous_attributes names the status it had).
 */
export const DERIVED_TRIGGERS: Partial<Record<WorkflowTrigger, (e: TriggerEventView) => boolean>> = {
  'ticket.closed': (e) => {
    const status = (e.data as { status?: unknown } | null | undefined)?.status;
    const prev = e.previous_attributes;
    return status === 'closed' && !!prev && 'status' in prev && prev.status !== 'closed';
  },
};

/** The triggers an event fires (usually one); with the event, derived triggers only when they hold. */
export function triggersOf(eventType: string, event?: TriggerEventView): WorkflowTrigger[] {
  return WORKFLOW_TRIGGERS.filter((t) => TRIGGER_EVENTS[t] === eventType && (!event || !DERIVED_TRIGGERS[t] || DERIVED_TRIGGERS[t](event)));
}

/** Triggers whose event carries a message (the loop guard's from_me check applies). */
export const MESSAGE_TRIGGERS: readonly WorkflowTrigger[] = [
  'message.created',
  'message.updated',
  'message.deleted',
  'message.flagged',
  'message.unflagged',
];
