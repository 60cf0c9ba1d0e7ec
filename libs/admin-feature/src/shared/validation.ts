import type { PrismaClient } from '@mapi/db';
import { AdminError } from '../admin-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id, trimmed, when it is a UUID; a clear error naming `what` otherwise. */
export function requireUuid(value: string | undefined, what: string): string {
  const id = (value ?? '').trim();
  if (!id) throw new AdminError(`${what} is required`);
  if (!UUID.test(id)) throw new AdminError(`${what} "${id}" is not a valid id (expected a UUID)`);
  return id.toLowerCase();
}

/** The organization with this id, or an AdminError when there is none. */
export async function requireOrganization(prisma: PrismaClient, orgId: string | undefined) {
  const id = requireUuid(orgId, 'organization id');
  const org = await prisma.organization.findUnique({ where: { id } });
  if (!org) throw new AdminError(`organization ${id} not found`);
  return org;
}

/** A trimmed, non-empty name of at most `max` characters. */
export function requireName(value: string | undefined, what: string, max = 200): string {
  const name = (value ?? '').trim();
  if (!name) throw new AdminError(`${what} must not be empty`);
  if (name.length > max) throw new AdminError(`${what} must be at most ${max} characters`);
  return name;
}
