import { previousAttributes, type MessageEventName } from '@mapi/contracts';
import type { EventInput } from '@mapi/events';
import { mapMessage } from '../messages/map-message';
import type { PhoneMessageRow } from '../rows/message-row';

/** A domain event an ingest batch causes, written to the outbox in the batch's transaction: always a phone's. */
export type OutEvent = EventInput & { phone_id: string };

/**
 * The event of a stored message row: the spec's Message object, for the row's phone. `before` (the
 * columns an update changed, as they were) makes its previous_attributes: the message's attributes
 * that differ, in the API's form.
 */
export function messageEvent(type: MessageEventName, { phone_id, ...row }: PhoneMessageRow, before?: Partial<PhoneMessageRow>): OutEvent {
  const data = mapMessage(row);
  if (!before) return { type, org_id: row.org_id, phone_id, data };
  const { phone_id: _phone, ...was } = before;
  return { type, org_id: row.org_id, phone_id, data, previous: previousAttributes(mapMessage({ ...row, ...was }), data) };
}
