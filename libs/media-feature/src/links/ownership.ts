import { ownerOf, type ObjectKey } from '@mapi/storage';

/** A file belongs to the organization named by the first segment of its name (UUIDs compare case-insensitively). */
export function isOwnedBy(key: ObjectKey, orgId: string): boolean {
  return ownerOf(key).toLowerCase() === orgId.toLowerCase();
}
