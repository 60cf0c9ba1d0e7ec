import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { BusinessHoursResultSchema, type BusinessHoursResult } from '../business-hours/business-hours.schema';

export type DeleteBusinessHoursResult = BusinessHoursResult;

export const DeleteBusinessHoursRpc = defineRpc({
  subject: 'analytics.v1.business-hours.delete',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema }),
  response: BusinessHoursResultSchema,
});
export type DeleteBusinessHoursRequest = z.infer<typeof DeleteBusinessHoursRpc.request>;

export const DeleteBusinessHoursRoute = defineRoute({
  operationId: 'deleteBusinessHours',
  method: 'DELETE',
  path: '/analytics/business-hours',
  tag: 'analytics',
  summary: "Remove the organization's business hours",
  description:
    'Ours (issue 34): removes the schedule (deadlines armed afterwards count wall-clock time) and answers `business_hours: null`; ' +
    'removing none is not an error. Owners and admins; a token limited to phones cannot (403).',
  phone: 'none',
  role: 'admin',
  rpc: DeleteBusinessHoursRpc,
  successStatus: 200,
  response: BusinessHoursResultSchema,
});
