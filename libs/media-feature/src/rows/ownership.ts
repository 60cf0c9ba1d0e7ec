import { ownerOf, type ObjectKey } from '@mapi/storage';

/** A file belongs to the organization named by the first segment of its name (UUIDs compare case-insensitively). */
export function isOwnedBy(key: ObjectKey, orgId: string): boolean {
  // Fast path for the common case (same spelling), without splitting or lower-casing per URL.
  if (key.name.startsWith(orgId) && key.name.charCodeAt(orgId.length) === 0x2f) return true;
  return ownerOf(key).toLowerCase() === orgId.toLowerCase();
}
