import type { EventName } from '@mapi/contracts';
import { mapMessage } from '../messages/map-message';
import type { PhoneMessageRow } from './insert-messages';

/** A domain event an ingest batch causes, written to the outbox in the batch's transaction. */
export interface OutEvent {
  type: EventName;
  org_id: string;
  phone_id: string;
  data: unknown;
}

/** The event of a stored message row: the spec's Message object, for the row's phone. */
export function messageEvent(type: EventName, { phone_id, ...row }: PhoneMessageRow): OutEvent {
  return { type, org_id: row.org_id, phone_id, data: mapMessage(row) };
}
