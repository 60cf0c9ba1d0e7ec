import type { PhoneDirectory } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';

/**
 * For specs of a service that reads phones through the phones service (phones.v1.directory) without
 * starting it: the same answer, read from the test database's phones rows (oldest first, deleted
 * phones never). The phones service's own answer is tested there and end to end.
 */
export function phoneDirectoryFromDb(prisma: PrismaClient): PhoneDirectory {
  return async ({ org_id, phone_ids, org_phone, connected }) => {
    const rows = await prisma.phone.findMany({
      where: {
        org_id,
        deleted_at: null,
        ...(phone_ids ? { phone_id: { in: phone_ids } } : {}),
        ...(org_phone !== undefined ? { org_phone } : {}),
        ...(connected ? { wa_state: 'CONNECTED', org_phone: org_phone ?? { not: null } } : {}),
      },
      orderBy: [{ created_at: 'asc' }, { phone_id: 'asc' }],
    });
    return rows.map((p) => ({
      phone_id: p.phone_id,
      org_phone: p.org_phone,
      wa_state: p.wa_state,
      created_at: p.created_at.toISOString(),
      connector: p.connector,
    }));
  };
}
