import { randomBytes } from 'node:crypto';
import type { Prisma, PrismaClient } from '@mapi/db';

export type PhoneRow = Prisma.PhoneModel;

export const newPhoneId = () => `phone-${[...randomBytes(16)].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('')}`;

/** Phones of an organization: every method names the organization (the session manager's scan excepted). */
export class PhoneRepository {
  constructor(private readonly prisma: PrismaClient) {}

  find(orgId: string, phoneId: string): Promise<PhoneRow | null> {
    return this.prisma.phone.findFirst({ where: { org_id: orgId, phone_id: phoneId, deleted_at: null } });
  }

  list(orgId: string, phoneIds: string[] | null): Promise<PhoneRow[]> {
    return this.prisma.phone.findMany({
      where: { org_id: orgId, deleted_at: null, ...(phoneIds ? { phone_id: { in: phoneIds } } : {}) },
      orderBy: [{ created_at: 'asc' }, { phone_id: 'asc' }],
    });
  }

  /** The directory other services read (phones.v1.directory): oldest first, deleted phones left out. */
  directory(orgId: string, filter: { phoneIds: string[] | null; orgPhone?: string; connected: boolean }) {
    return this.prisma.phone.findMany({
      where: {
        org_id: orgId,
        deleted_at: null,
        ...(filter.phoneIds ? { phone_id: { in: filter.phoneIds } } : {}),
        ...(filter.orgPhone !== undefined ? { org_phone: filter.orgPhone } : {}),
        ...(filter.connected ? { wa_state: 'CONNECTED', org_phone: filter.orgPhone ?? { not: null } } : {}),
      },
      select: { phone_id: true, org_phone: true, wa_state: true, created_at: true, connector: true },
      orderBy: [{ created_at: 'asc' }, { phone_id: 'asc' }],
    });
  }

  create(orgId: string, data: { phone_name?: string; connector: string }): Promise<PhoneRow> {
    return this.prisma.phone.create({
      data: { phone_id: newPhoneId(), org_id: orgId, org_phone: null, phone_name: data.phone_name ?? null, connector: data.connector },
    });
  }

  update(orgId: string, phoneId: string, data: Prisma.PhoneUpdateManyMutationInput): Promise<PhoneRow> {
    return this.prisma.phone.update({ where: { phone_id: phoneId, org_id: orgId }, data: { ...data, updated_at: new Date() } });
  }

  /** Every phone whose session should run somewhere (not deleted). Not tenant-scoped: the session manager serves all. */
  activeSessions(): Promise<{ phone_id: string; org_id: string; connector: string }[]> {
    return this.prisma.phone.findMany({ where: { deleted_at: null }, select: { phone_id: true, org_id: true, connector: true } });
  }
}
