import type { RouteContract } from '../http/define-route';
import { MessageMetricsRoute } from './message-metrics/message-metrics.contract';
import { RightNowRoute } from './right-now/right-now.contract';
import { TicketMetricsRoute } from './ticket-metrics/ticket-metrics.contract';
import { TeamMetricsRoute } from './team-metrics/team-metrics.contract';
import { GetBusinessHoursRoute } from './get-business-hours/get-business-hours.contract';
import { PutBusinessHoursRoute } from './put-business-hours/put-business-hours.contract';
import { DeleteBusinessHoursRoute } from './delete-business-hours/delete-business-hours.contract';
import { ListSlaPoliciesRoute } from './list-sla-policies/list-sla-policies.contract';
import { CreateSlaPolicyRoute } from './create-sla-policy/create-sla-policy.contract';
import { GetSlaPolicyRoute } from './get-sla-policy/get-sla-policy.contract';
import { UpdateSlaPolicyRoute } from './update-sla-policy/update-sla-policy.contract';
import { DeleteSlaPolicyRoute } from './delete-sla-policy/delete-sla-policy.contract';
import { ListFlagRulesRoute } from './list-flag-rules/list-flag-rules.contract';
import { CreateFlagRuleRoute } from './create-flag-rule/create-flag-rule.contract';
import { GetFlagRuleRoute } from './get-flag-rule/get-flag-rule.contract';
import { UpdateFlagRuleRoute } from './update-flag-rule/update-flag-rule.contract';
import { DeleteFlagRuleRoute } from './delete-flag-rule/delete-flag-rule.contract';

export * from './period/period';
export * from './csv/csv';
export * from './business-hours/business-hours.schema';
export * from './sla-policies/sla-policy.schema';
export * from './message-metrics/message-metrics.contract';
export * from './right-now/right-now.contract';
export * from './ticket-metrics/ticket-metrics.contract';
export * from './team-metrics/team-metrics.contract';
export * from './get-business-hours/get-business-hours.contract';
export * from './put-business-hours/put-business-hours.contract';
export * from './delete-business-hours/delete-business-hours.contract';
export * from './list-sla-policies/list-sla-policies.contract';
export * from './create-sla-policy/create-sla-policy.contract';
export * from './get-sla-policy/get-sla-policy.contract';
export * from './update-sla-policy/update-sla-policy.contract';
export * from './delete-sla-policy/delete-sla-policy.contract';
export * from './flag-rules/flag-rule.schema';
export * from './list-flag-rules/list-flag-rules.contract';
export * from './create-flag-rule/create-flag-rule.contract';
export * from './get-flag-rule/get-flag-rule.contract';
export * from './update-flag-rule/update-flag-rule.contract';
export * from './delete-flag-rule/delete-flag-rule.contract';

/**
 * The analytics service's public routes: message, ticket and team metrics, "right now", business hours, SLA
 * policies and flag rules (issue 34, docs/services/analytics.md).
 */
export const ANALYTICS_ROUTES: readonly RouteContract[] = [
  MessageMetricsRoute,
  RightNowRoute,
  TicketMetricsRoute,
  TeamMetricsRoute,
  GetBusinessHoursRoute,
  PutBusinessHoursRoute,
  DeleteBusinessHoursRoute,
  ListSlaPoliciesRoute,
  CreateSlaPolicyRoute,
  GetSlaPolicyRoute,
  UpdateSlaPolicyRoute,
  DeleteSlaPolicyRoute,
  ListFlagRulesRoute,
  CreateFlagRuleRoute,
  GetFlagRuleRoute,
  UpdateFlagRuleRoute,
  DeleteFlagRuleRoute,
];
