import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { FlagRuleParams, FlagRuleSchema } from '../flag-rules/flag-rule.schema';

export const GetFlagRuleParams = FlagRuleParams;
export const GetFlagRuleResultSchema = z.object({ rule: FlagRuleSchema });
export type GetFlagRuleResult = z.infer<typeof GetFlagRuleResultSchema>;

export const GetFlagRuleRpc = defineRpc({
  subject: 'analytics.v1.flag-rules.get',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, params: GetFlagRuleParams }),
  response: GetFlagRuleResultSchema,
});
export type GetFlagRuleRequest = z.infer<typeof GetFlagRuleRpc.request>;

export const GetFlagRuleRoute = defineRoute({
  operationId: 'getFlagRule',
  method: 'GET',
  path: '/analytics/flag-rules/{rule_id}',
  tag: 'analytics',
  summary: 'Get a flag rule',
  description: "Ours (issue 34): one flag rule; another organization's (or another phone's, for a token limited to phones) is 404.",
  params: GetFlagRuleParams,
  phone: 'none',
  rpc: GetFlagRuleRpc,
  successStatus: 200,
  response: GetFlagRuleResultSchema,
});
