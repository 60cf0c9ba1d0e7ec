import type { GetBusinessHoursRequest, GetBusinessHoursResult } from '@mapi/contracts';
import type { BusinessHoursRepository } from '../../business-hours/business-hours-repository';
import { mapBusinessHours } from '../../business-hours/map-business-hours';

/** GET /analytics/business-hours: the organization's (ctx.org_id) schedule, or null when none is set. */
export class GetBusinessHours {
  constructor(private readonly hours: BusinessHoursRepository) {}

  async execute({ ctx }: GetBusinessHoursRequest): Promise<GetBusinessHoursResult> {
    const row = await this.hours.get(ctx.org_id);
    return { business_hours: row ? mapBusinessHours(row) : null };
  }
}
