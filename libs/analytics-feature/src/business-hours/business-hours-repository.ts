import type { BusinessHoursBody } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import type { BusinessHoursRow } from './map-business-hours';

type Db = PrismaClient | Prisma.TransactionClient;

/** An organization's business hours (analytics_business_hours), keyed by organization. */
export class BusinessHoursRepository {
  constructor(private readonly db: Db) {}

  get(orgId: string): Promise<BusinessHoursRow | null> {
    return this.db.analyticsBusinessHours.findUnique({ where: { org_id: orgId } });
  }

  /** Of several organizations (the SLA intake's batch). */
  async of(orgIds: string[]): Promise<Map<string, BusinessHoursRow>> {
    const rows = orgIds.length ? await this.db.analyticsBusinessHours.findMany({ where: { org_id: { in: orgIds } } }) : [];
    return new Map(rows.map((r) => [r.org_id, r]));
  }

  put(orgId: string, body: BusinessHoursBody): Promise<BusinessHoursRow> {
    const data = {
      time_zone: body.time_zone,
      weekly: body.weekly as Prisma.InputJsonValue,
      holidays: [...new Set(body.holidays)].sort(),
      updated_at: new Date(),
    };
    return this.db.analyticsBusinessHours.upsert({ where: { org_id: orgId }, create: { org_id: orgId, ...data }, update: data });
  }

  async delete(orgId: string): Promise<void> {
    await this.db.analyticsBusinessHours.deleteMany({ where: { org_id: orgId } });
  }
}
