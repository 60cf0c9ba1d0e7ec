import { z } from 'zod';
import type { EventName } from './event-names';

/**
 * A domain event: its catalogue name, a versioned subject (prefixed with the deployment namespace at
 * run time, like RPC subjects) and the schema of its payload — the object the event carries as
 * `data`. Writers are typed by it (`writeEvents`), consumers read it, and the OpenAPI document lists
 * it under `webhooks`.
 */
export interface EventDefinition<N extends EventName = EventName, D extends z.ZodType = z.ZodType> {
  name: N;
  /** `events.v<N>.<name>` */
  subject: string;
  /** One line for the API reference. */
  summary: string;
  data: D;
}

export function defineEvent<N extends EventName, D extends z.ZodType>(event: EventDefinition<N, D>): EventDefinition<N, D> {
  const [prefix, version, ...name] = event.subject.split('.');
  if (prefix !== 'events' || !/^v[0-9]+$/.test(version ?? '') || name.join('.') !== event.name) {
    throw new Error(`Event subject ${event.subject} must look like events.v<N>.${event.name}`);
  }
  return event;
}

/**
 * The body a webhook delivery POSTs (docs/services/webhooks.md): the hosted service's envelope
 * (`event`, `data`, `org_id`, `previous_attributes`, `timestamp`) with our own fields beside it
 * (`event_id`, `event_type`, `phone_id`, `created_at`). Realtime clients get `data` as the first
 * argument and the rest as the second.
 */
export function eventEnvelopeSchema<D extends z.ZodType>(event: EventDefinition<EventName, D>) {
  return z.object({
    event: z.literal(event.name),
    data: event.data,
    org_id: z.uuid(),
    /** Update events: the changed attributes with their values before the change; null otherwise. */
    previous_attributes: z.record(z.string(), z.unknown()).nullable(),
    /** ISO 8601: when the event was written */
    timestamp: z.string(),
    event_id: z.uuid(),
    /** The same as `event` (the name this API used first). */
    event_type: z.literal(event.name),
    /** The phone the event concerns; null for events of the organization (webhook.subscription.disabled). */
    phone_id: z.string().nullable(),
    /** The same as `timestamp`. */
    created_at: z.string(),
  });
}
