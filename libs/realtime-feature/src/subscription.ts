import type { DomainEvent } from '@mapi/events';

/** What one socket may receive: its organization's events, narrowed to some phones when scoped. */
export interface Subscription {
  org_id: string;
  token_id: string;
  /** null: every phone of the organization, and its events tied to no phone. */
  phone_ids: string[] | null;
}

const orgRoom = (orgId: string) => `org:${orgId}`;
const phoneRoom = (orgId: string, phoneId: string) => `phone:${orgId}:${phoneId}`;

/**
 * Rooms a socket joins. An unscoped socket listens on its organization's room; a socket limited to
 * some phones (by x-phone or by the token's scope) listens only on those phones' rooms, so it never
 * receives another phone's event, nor an event tied to no phone.
 */
export function roomsOf(sub: Subscription): string[] {
  return sub.phone_ids === null ? [orgRoom(sub.org_id)] : sub.phone_ids.map((p) => phoneRoom(sub.org_id, p));
}

/** Rooms an event goes to: its organization's, and its phone's when it has one. */
export function roomsFor(event: Pick<DomainEvent, 'org_id' | 'phone_id'>): string[] {
  return event.phone_id ? [orgRoom(event.org_id), phoneRoom(event.org_id, event.phone_id)] : [orgRoom(event.org_id)];
}
