import { EVENTS, isEventName } from '@mapi/contracts';
import { z } from 'zod';

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
