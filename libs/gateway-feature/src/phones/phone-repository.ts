import type { PrismaClient } from '@mapi/db';
import type { PhoneRef } from '@mapi/contracts';

export interface ResolvedPhone {
  phone_id: string;
  org_phone: string | null;
}

/** Phone lookups for `x-phone`; every query names the organization. */
export class PhoneRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async findByRef(orgId: string, ref: PhoneRef): Promise<ResolvedPhone | null> {
    const where = ref.kind === 'phone_id' ? { org_id: orgId, phone_id: ref.phone_id } : { org_id: orgId, org_phone: ref.org_phone };
    return this.prisma.phone.findFirst({
      where: { ...where, deleted_at: null },
      select: { phone_id: true, org_phone: true },
      orderBy: { created_at: 'asc' },
    });
  }
}
