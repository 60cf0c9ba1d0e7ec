import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { FlagRuleSchema } from '../flag-rules/flag-rule.schema';

export const ListFlagRulesResultSchema = z.object({ rules: z.array(FlagRuleSchema) });
export type ListFlagRulesResult = z.infer<typeof ListFlagRulesResultSchema>;

export const ListFlagRulesRpc = defineRpc({
  subject: 'analytics.v1.flag-rules.list',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema }),
  response: ListFlagRulesResultSchema,
});
export type ListFlagRulesRequest = z.infer<typeof ListFlagRulesRpc.request>;

export const ListFlagRulesRoute = defineRoute({
  operationId: 'listFlagRules',
  method: 'GET',
  path: '/analytics/flag-rules',
  tag: 'analytics',
  summary: 'List flag rules',
  description:
    "Ours (issue 34): the organization's flag rules, oldest first (at most 100). A token or member limited to phones sees the " +
    'rules of every phone (phone_id null) and those of its phones. docs/services/analytics.md "Flagging".',
  phone: 'none',
  rpc: ListFlagRulesRpc,
  successStatus: 200,
  response: ListFlagRulesResultSchema,
});
