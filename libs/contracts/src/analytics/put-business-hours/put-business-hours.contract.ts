import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { BusinessHoursBody, BusinessHoursResultSchema, type BusinessHoursResult } from '../business-hours/business-hours.schema';

export const PutBusinessHoursBody = BusinessHoursBody;
export type PutBusinessHoursBody = BusinessHoursBody;
export type PutBusinessHoursResult = BusinessHoursResult;

export const PutBusinessHoursRpc = defineRpc({
  subject: 'analytics.v1.business-hours.put',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, body: PutBusinessHoursBody }),
  response: BusinessHoursResultSchema,
});
export type PutBusinessHoursRequest = z.infer<typeof PutBusinessHoursRpc.request>;

export const PutBusinessHoursRoute = defineRoute({
  operationId: 'putBusinessHours',
  method: 'PUT',
  path: '/analytics/business-hours',
  tag: 'analytics',
  summary: "Set the organization's business hours",
  description:
    'Ours (issue 34): replaces the schedule: `time_zone` (IANA), `weekly` ({monday: [{start: "09:00", end: "17:00"}], …}; local HH:MM, ' +
    'an end at or before the start runs past midnight, at most 8 non-overlapping intervals a day, at least one weekday with hours) and ' +
    '`holidays` (local dates YYYY-MM-DD without business time). Deadlines armed after the change use it; armed ones keep theirs. ' +
    'Owners and admins; a token limited to phones cannot change it (403).',
  body: PutBusinessHoursBody,
  phone: 'none',
  role: 'admin',
  rpc: PutBusinessHoursRpc,
  successStatus: 200,
  response: BusinessHoursResultSchema,
});
