import type { PutBusinessHoursRequest, PutBusinessHoursResult } from '@mapi/contracts';
import type { BusinessHoursRepository } from '../../business-hours/business-hours-repository';
import { mapBusinessHours } from '../../business-hours/map-business-hours';
import { assertWholeOrganization } from '../../sla/sla-access';

/** PUT /analytics/business-hours: replaces the organization's schedule (a token limited to phones may not: 403). */
export class PutBusinessHours {
  constructor(private readonly hours: BusinessHoursRepository) {}

  async execute({ ctx, body }: PutBusinessHoursRequest): Promise<PutBusinessHoursResult> {
    assertWholeOrganization(ctx, "the organization's business hours");
    return { business_hours: mapBusinessHours(await this.hours.put(ctx.org_id, body)) };
  }
}
