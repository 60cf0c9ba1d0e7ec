import type { EventName } from '@mapi/contracts';

/** A domain event an ingest batch causes, written to the outbox in the batch's transaction. */
export interface OutEvent {
  type: EventName;
  org_id: string;
  phone_id: string;
  data: unknown;
}
