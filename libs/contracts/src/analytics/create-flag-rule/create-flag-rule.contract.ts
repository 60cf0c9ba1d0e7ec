import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MAX_FLAG_RULES, FlagRuleCreateBody, FlagRuleSchema } from '../flag-rules/flag-rule.schema';

export const CreateFlagRuleBody = FlagRuleCreateBody;
export type CreateFlagRuleBody = FlagRuleCreateBody;

export const CreateFlagRuleResultSchema = z.object({ rule: FlagRuleSchema });
export type CreateFlagRuleResult = z.infer<typeof CreateFlagRuleResultSchema>;

export const CreateFlagRuleRpc = defineRpc({
  subject: 'analytics.v1.flag-rules.create',
  service: 'analytics',
  request: z.object({ ctx: RequestContextSchema, body: CreateFlagRuleBody }),
  response: CreateFlagRuleResultSchema,
});
export type CreateFlagRuleRequest = z.infer<typeof CreateFlagRuleRpc.request>;

export const CreateFlagRuleRoute = defineRoute({
  operationId: 'createFlagRule',
  method: 'POST',
  path: '/analytics/flag-rules',
  tag: 'analytics',
  summary: 'Create a flag rule',
  description:
    'Ours (issue 34): a rule flagging incoming messages as needing attention — `keyword` (`keywords`: a word or phrase of the ' +
    'text, any case, whole words), `label` (`label_id`: the chat carries that label), `waiting` (`minutes`: no reply within that ' +
    'many minutes) or `model` (`prompt`: the configured model is asked, and gives the reason; inactive without a model). ' +
    'Optionally only for `phone_id`. A flag fires message.flagged once; a reply unflags. Messages from before the rule existed ' +
    `are not flagged. At most ${MAX_FLAG_RULES} rules. Owners and admins; a token limited to phones must name one of its phones.`,
  body: CreateFlagRuleBody,
  phone: 'none',
  role: 'admin',
  rpc: CreateFlagRuleRpc,
  successStatus: 201,
  response: CreateFlagRuleResultSchema,
});
