import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { BusinessHoursResultSchema, type BusinessHoursResult } from '../business-hours/business-hours.schema';

export type GetBusinessHoursResult = BusinessHoursResult;

export const GetBusinessHoursRpc = defineRpc({
  subject: 'analytics.v1.business-hours.get',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema }),
  response: BusinessHoursResultSchema,
});
export type GetBusinessHoursRequest = z.infer<typeof GetBusinessHoursRpc.request>;

export const GetBusinessHoursRoute = defineRoute({
  operationId: 'getBusinessHours',
  method: 'GET',
  path: '/analytics/business-hours',
  tag: 'analytics',
  summary: 'Business hours of the organization',
  description:
    "Ours (issue 34): the organization's schedule (IANA time zone, hours per weekday, holidays) that SLA deadlines are counted in; " +
    '`business_hours` is null when none is set (SLA deadlines then count wall-clock time). docs/services/analytics.md.',
  phone: 'none',
  rpc: GetBusinessHoursRpc,
  successStatus: 200,
  response: BusinessHoursResultSchema,
});
