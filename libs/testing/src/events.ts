import { EVENTS, isEventName, type EventInput, type EventName } from '@mapi/contracts';
import { z } from 'zod';

/**
 * Events with stand-in payloads, for tests of the outbox and delivery machinery, which carry any JSON
 * untouched. Writers must give the registry's payload (EventInput); these tests need not.
 */
export function stubEvents(events: readonly { type: EventName; org_id: string; phone_id?: string | null; data: unknown }[]): EventInput[] {
  return events as EventInput[];
}

/**
 * An event's payload parsed with its registry schema (libs/contracts/src/events): throws, naming the
 * event and the fields, when a writer wrote something else than the object the event documents.
 */
export function registryPayload(event: { type: string; payload: unknown }): unknown {
  if (!isEventName(event.type)) throw new Error(`${event.type} is not an event of the catalogue`);
  const parsed = EVENTS[event.type].data.safeParse(event.payload);
  if (!parsed.success) throw new Error(`${event.type}: the payload is not the registry's object:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
