import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { FlagRuleParams, FlagRuleSchema, FlagRuleUpdateBody } from '../flag-rules/flag-rule.schema';

export const UpdateFlagRuleParams = FlagRuleParams;
export const UpdateFlagRuleBody = FlagRuleUpdateBody;
export type UpdateFlagRuleBody = FlagRuleUpdateBody;

export const UpdateFlagRuleResultSchema = z.object({ rule: FlagRuleSchema });
export type UpdateFlagRuleResult = z.infer<typeof UpdateFlagRuleResultSchema>;

export const UpdateFlagRuleRpc = defineRpc({
  subject: 'analytics.v1.flag-rules.update',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, params: UpdateFlagRuleParams, body: UpdateFlagRuleBody }),
  response: UpdateFlagRuleResultSchema,
});
export type UpdateFlagRuleRequest = z.infer<typeof UpdateFlagRuleRpc.request>;

export const UpdateFlagRuleRoute = defineRoute({
  operationId: 'updateFlagRule',
  method: 'PATCH',
  path: '/analytics/flag-rules/{rule_id}',
  tag: 'analytics',
  summary: 'Update a flag rule',
  description:
    'Ours (issue 34): changes the named fields (the kind stays; only its own field may change: keywords, label_id, minutes ' +
    'or prompt). Disabling a rule, or changing its phone, drops its pending flags. Owners and admins.',
  params: UpdateFlagRuleParams,
  body: UpdateFlagRuleBody,
  phone: 'none',
  role: 'admin',
  rpc: UpdateFlagRuleRpc,
  successStatus: 200,
  response: UpdateFlagRuleResultSchema,
});
