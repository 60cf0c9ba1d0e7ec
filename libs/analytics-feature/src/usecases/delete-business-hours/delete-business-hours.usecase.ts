import type { DeleteBusinessHoursRequest, DeleteBusinessHoursResult } from '@mapi/contracts';
import type { BusinessHoursRepository } from '../../business-hours/business-hours-repository';
import { assertWholeOrganization } from '../../sla/sla-access';

/** DELETE /analytics/business-hours: removes the organization's schedule (none set: nothing to do). */
export class DeleteBusinessHours {
  constructor(private readonly hours: BusinessHoursRepository) {}

  async execute({ ctx }: DeleteBusinessHoursRequest): Promise<DeleteBusinessHoursResult> {
    assertWholeOrganization(ctx, "the organization's business hours");
    await this.hours.delete(ctx.org_id);
    return { business_hours: null };
  }
}
