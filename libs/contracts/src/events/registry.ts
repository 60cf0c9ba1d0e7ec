import type { z } from 'zod';
import { ChatCreatedEvent, ChatCustomPropertiesUpdatedEvent, ChatLabelUpdatedEvent } from './chat/chat.events';
import type { EventDefinition } from './define-event';
import type { EventName } from './event-names';
import {
  MessageAckUpdatedEvent,
  MessageCreatedEvent,
  MessageDeletedEvent,
  MessageFlaggedEvent,
  MessageTicketAttachedEvent,
  MessageUnflaggedEvent,
  MessageUpdatedEvent,
} from './message/message.events';
import { NoteCreatedEvent } from './note/note.events';
import { ChatNotificationCreatedEvent } from './notification/notification.events';
import { PhoneConnectedEvent, PhoneDisconnectedEvent, PhoneQrEvent, PhoneUpdatedEvent } from './phone/phone.events';
import { ReactionCreatedEvent, ReactionUpdatedEvent } from './reaction/reaction.events';
import { SlaBreachedEvent } from './sla/sla.events';
import { TaskCreatedEvent, TaskDeletedEvent, TaskReminderEvent, TaskUpdatedEvent } from './task/task.events';
import { TicketCreatedEvent, TicketDeletedEvent, TicketUpdatedEvent } from './ticket/ticket.events';
import { WebhookSubscriptionDisabledEvent } from './webhook/subscription-disabled.event';
import { WorkflowRunCompletedEvent, WorkflowRunFailedEvent } from './workflow/workflow-run.events';

/** Every event of the catalogue, by name: a name without a definition does not compile. */
export const EVENTS = {
  'chat.created': ChatCreatedEvent,
  'chat.notification.created': ChatNotificationCreatedEvent,
  'message.created': MessageCreatedEvent,
  'message.updated': MessageUpdatedEvent,
  'message.deleted': MessageDeletedEvent,
  'message.ack.updated': MessageAckUpdatedEvent,
  'message.ticket.attached': MessageTicketAttachedEvent,
  'message.flagged': MessageFlaggedEvent,
  'message.unflagged': MessageUnflaggedEvent,
  'reaction.created': ReactionCreatedEvent,
  'reaction.updated': ReactionUpdatedEvent,
  'ticket.created': TicketCreatedEvent,
  'ticket.updated': TicketUpdatedEvent,
  'ticket.deleted': TicketDeletedEvent,
  'org.phone.updated': PhoneUpdatedEvent,
  'org.phone.connected': PhoneConnectedEvent,
  'org.phone.disconnected': PhoneDisconnectedEvent,
  'org.phone.qr': PhoneQrEvent,
  'note.created': NoteCreatedEvent,
  'chat.custom_properties.updated': ChatCustomPropertiesUpdatedEvent,
  'chat.label.updated': ChatLabelUpdatedEvent,
  'task.created': TaskCreatedEvent,
  'task.updated': TaskUpdatedEvent,
  'task.deleted': TaskDeletedEvent,
  'task.reminder': TaskReminderEvent,
  'workflow.run.completed': WorkflowRunCompletedEvent,
  'workflow.run.failed': WorkflowRunFailedEvent,
  'sla.breached': SlaBreachedEvent,
  'webhook.subscription.disabled': WebhookSubscriptionDisabledEvent,
} as const satisfies { [N in EventName]: EventDefinition<N> };

/** The object an event carries as `data`. */
export type EventPayload<N extends EventName> = z.infer<(typeof EVENTS)[N]['data']>;

/**
 * An event as a writer gives it (libs/events writeEvents): its name, organization, phone (if any) and
 * the payload the registry defines for that name — a union over the names, so a partial or another
 * event's object does not compile.
 */
export type EventInput<N extends EventName = EventName> = {
  [K in N]: {
    type: K;
    org_id: string;
    phone_id?: string | null;
    data: EventPayload<K>;
    /**
     * On an update event: the attributes the change replaced, with their values before it (what the
     * hosted service's receivers read as `previous_attributes`); null or absent otherwise.
     */
    previous?: Partial<EventPayload<K>> | null;
  };
}[N];

/**
 * The attributes of `before` whose values differ in `after`, with their values in `before` — the
 * `previous_attributes` of an update event. Values are compared as JSON.
 */
export function previousAttributes<T extends object>(before: T, after: T): Partial<T> {
  const previous: Partial<T> = {};
  for (const key of Object.keys(before) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key];
  }
  return previous;
}

/** The events whose payload is the message object (spec 2.1). */
export type MessageEventName = {
  [N in EventName]: (typeof EVENTS)[N]['data'] extends typeof MessageCreatedEvent.data ? N : never;
}[EventName];
/** The events whose payload is the phone object. */
export type PhoneEventName = { [N in EventName]: (typeof EVENTS)[N]['data'] extends typeof PhoneUpdatedEvent.data ? N : never }[EventName];

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENTS, name);
}

/**
 * The subject an event is published on, without the namespace (`events.v1.message.created`). A name
 * the registry does not know (written by a newer release, read by an older relay) gets the same
 * form with v1, so it is still published under `<ns>.events.>` instead of stopping the relay.
 */
export function eventSubjectOf(name: string): string {
  return isEventName(name) ? EVENTS[name].subject : `events.v1.${name}`;
}
