import type { MemberPrincipal } from '@mapi/contracts';
import type { DomainEvent } from '@mapi/events';

/** What one socket may receive: its organization's events, narrowed to some phones when scoped. */
export interface Subscription {
  org_id: string;
  token_id: string;
  /** null: every phone of the organization, and its events tied to no phone. */
  phone_ids: string[] | null;
  /** A member (role member) of a console session: events are checked one by one against their reach (member-reach.ts). */
  member?: MemberPrincipal;
  /** The member's x-phone phone, if any. */
  phone?: string | null;
}

const orgRoom = (orgId: string) => `org:${orgId}`;
const phoneRoom = (orgId: string, phoneId: string) => `phone:${orgId}:${phoneId}`;
/** Member sockets of an organization: in no room an event is broadcast to; each event is checked for each. */
export const memberRoom = (orgId: string) => `members:${orgId}`;

/**
 * Rooms a socket joins. An unscoped socket listens on its organization's room; a socket limited to
 * some phones (by x-phone or by the token's scope) listens only on those phones' rooms, so it never
 * receives another phone's event, nor an event tied to no phone. A member's socket joins only its
 * organization's member room (an override may grant a chat of a phone beyond theirs).
 */
export function roomsOf(sub: Subscription): string[] {
  if (sub.member) return [memberRoom(sub.org_id)];
  return sub.phone_ids === null ? [orgRoom(sub.org_id)] : sub.phone_ids.map((p) => phoneRoom(sub.org_id, p));
}

/** Rooms an event goes to: its organization's, and its phone's when it has one. */
export function roomsFor(event: Pick<DomainEvent, 'org_id' | 'phone_id'>): string[] {
  return event.phone_id ? [orgRoom(event.org_id), phoneRoom(event.org_id, event.phone_id)] : [orgRoom(event.org_id)];
}
