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
 * The body a webhook delivery POSTs (docs/services/webhooks.md): the event's id, name, organization,
 * phone and time around the object itself. Realtime clients get `data` as the first argument and the
 * rest as the second.
 */
export function eventEnvelopeSchema<D extends z.ZodType>(event: EventDefinition<EventName, D>) {
  return z.object({
    event_id: z.uuid(),
    event_type: z.literal(event.name),
    org_id: z.uuid(),
    /** The phone the event concerns; null for events of the organization (webhook.subscription.disabled). */
    phone_id: z.string().nullable(),
    /** ISO 8601: when the event was written */
    created_at: z.string(),
    data: event.data,
  });
}
