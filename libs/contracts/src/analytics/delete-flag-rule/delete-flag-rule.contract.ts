import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { FlagRuleParams, FlagRuleSchema } from '../flag-rules/flag-rule.schema';

export const DeleteFlagRuleParams = FlagRuleParams;
export const DeleteFlagRuleResultSchema = z.object({ rule: FlagRuleSchema });
export type DeleteFlagRuleResult = z.infer<typeof DeleteFlagRuleResultSchema>;

export const DeleteFlagRuleRpc = defineRpc({
  subject: 'analytics.v1.flag-rules.delete',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, params: DeleteFlagRuleParams }),
  response: DeleteFlagRuleResultSchema,
});
export type DeleteFlagRuleRequest = z.infer<typeof DeleteFlagRuleRpc.request>;

export const DeleteFlagRuleRoute = defineRoute({
  operationId: 'deleteFlagRule',
  method: 'DELETE',
  path: '/analytics/flag-rules/{rule_id}',
  tag: 'analytics',
  summary: 'Delete a flag rule',
  description:
    'Ours (issue 34): deletes the rule and its pending flags (none fires afterwards; messages it flagged stay flagged); answers the rule as it was. Owners and admins.',
  params: DeleteFlagRuleParams,
  phone: 'none',
  role: 'admin',
  rpc: DeleteFlagRuleRpc,
  successStatus: 200,
  response: DeleteFlagRuleResultSchema,
});
