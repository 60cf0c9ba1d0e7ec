import {
  CreateFlagRuleRpc,
  CreateSlaPolicyRpc,
  DeleteFlagRuleRpc,
  GetFlagRuleRpc,
  ListFlagRulesRpc,
  UpdateFlagRuleRpc,
  DeleteBusinessHoursRpc,
  DeleteSlaPolicyRpc,
  GetBusinessHoursRpc,
  GetSlaPolicyRpc,
  ListSlaPoliciesRpc,
  MessageMetricsRpc,
  PutBusinessHoursRpc,
  RightNowRpc,
  TeamMetricsRpc,
  TicketMetricsRpc,
  UpdateSlaPolicyRpc,
} from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { rpcHandler } from '@mapi/platform';
import { BusinessHoursRepository } from './business-hours/business-hours-repository';
import { MetricsRepository } from './repositories/metrics-repository';
import { TeamMetricsRepository, TicketMetricsRepository } from './repositories/ticket-metrics-repository';
import type { ChatLabels, ChatReach, UnreadChats } from './scope';
import { SlaPolicyRepository } from './sla/sla-policy-repository';
import { MessageMetrics } from './usecases/message-metrics/message-metrics.usecase';
import { RightNow } from './usecases/right-now/right-now.usecase';
import { TeamMetrics, type TokenNames } from './usecases/team-metrics/team-metrics.usecase';
import { TicketMetrics } from './usecases/ticket-metrics/ticket-metrics.usecase';
import { GetBusinessHours } from './usecases/get-business-hours/get-business-hours.usecase';
import { PutBusinessHours } from './usecases/put-business-hours/put-business-hours.usecase';
import { DeleteBusinessHours } from './usecases/delete-business-hours/delete-business-hours.usecase';
import { ListSlaPolicies } from './usecases/list-sla-policies/list-sla-policies.usecase';
import { CreateSlaPolicy } from './usecases/create-sla-policy/create-sla-policy.usecase';
import { GetSlaPolicy } from './usecases/get-sla-policy/get-sla-policy.usecase';
import { UpdateSlaPolicy } from './usecases/update-sla-policy/update-sla-policy.usecase';
import { DeleteSlaPolicy } from './usecases/delete-sla-policy/delete-sla-policy.usecase';
import { FlagRuleRepository } from './flagging/flag-rule-repository';
import { ListFlagRules } from './usecases/list-flag-rules/list-flag-rules.usecase';
import { CreateFlagRule } from './usecases/create-flag-rule/create-flag-rule.usecase';
import { GetFlagRule } from './usecases/get-flag-rule/get-flag-rule.usecase';
import { UpdateFlagRule } from './usecases/update-flag-rule/update-flag-rule.usecase';
import { DeleteFlagRule } from './usecases/delete-flag-rule/delete-flag-rule.usecase';

export interface AnalyticsDeps {
  prisma: PrismaClient;
  /** A member's reach over chat copies, decided by the chats service (chats.v1.chat.copies-in-reach). */
  reach: ChatReach;
  /** Label narrowing within reach, decided by the chats service (chats.v1.chat.copies-with-label). */
  labels: ChatLabels;
  /** The unread chats within reach, counted by the chats service (chats.v1.chat.count-unread). */
  unread: UnreadChats;
  /** API token names, from the members service that owns tokens (members.v1.tokens.names). */
  tokenNames: TokenNames;
  /** A model is configured for flagging (model rules are active only then); absent: false. */
  modelOn?: boolean;
}

const serve = rpcHandler<AnalyticsDeps>();

/** What the analytics service answers: one line per operation, its contract and its use case. */
export const ANALYTICS_HANDLERS: ReturnType<typeof serve>[] = [
  serve(MessageMetricsRpc, (d) => new MessageMetrics(new MetricsRepository(d.prisma), d.reach, d.labels)),
  serve(RightNowRpc, (d) => new RightNow(new MetricsRepository(d.prisma), new TicketMetricsRepository(d.prisma), d.reach, d.unread)),
  serve(TicketMetricsRpc, (d) => new TicketMetrics(new TicketMetricsRepository(d.prisma), d.reach)),
  serve(
    TeamMetricsRpc,
    (d) =>
      new TeamMetrics(
        new TeamMetricsRepository(d.prisma),
        new MetricsRepository(d.prisma),
        new TicketMetricsRepository(d.prisma),
        d.reach,
        d.tokenNames,
      ),
  ),
  serve(GetBusinessHoursRpc, (d) => new GetBusinessHours(new BusinessHoursRepository(d.prisma))),
  serve(PutBusinessHoursRpc, (d) => new PutBusinessHours(new BusinessHoursRepository(d.prisma))),
  serve(DeleteBusinessHoursRpc, (d) => new DeleteBusinessHours(new BusinessHoursRepository(d.prisma))),
  serve(ListSlaPoliciesRpc, (d) => new ListSlaPolicies(new SlaPolicyRepository(d.prisma))),
  serve(CreateSlaPolicyRpc, (d) => new CreateSlaPolicy(new SlaPolicyRepository(d.prisma))),
  serve(GetSlaPolicyRpc, (d) => new GetSlaPolicy(new SlaPolicyRepository(d.prisma))),
  serve(UpdateSlaPolicyRpc, (d) => new UpdateSlaPolicy(new SlaPolicyRepository(d.prisma))),
  serve(DeleteSlaPolicyRpc, (d) => new DeleteSlaPolicy(new SlaPolicyRepository(d.prisma))),
  serve(ListFlagRulesRpc, (d) => new ListFlagRules(new FlagRuleRepository(d.prisma), d.modelOn ?? false)),
  serve(CreateFlagRuleRpc, (d) => new CreateFlagRule(new FlagRuleRepository(d.prisma), d.modelOn ?? false)),
  serve(GetFlagRuleRpc, (d) => new GetFlagRule(new FlagRuleRepository(d.prisma), d.modelOn ?? false)),
  serve(UpdateFlagRuleRpc, (d) => new UpdateFlagRule(new FlagRuleRepository(d.prisma), d.modelOn ?? false)),
  serve(DeleteFlagRuleRpc, (d) => new DeleteFlagRule(new FlagRuleRepository(d.prisma), d.modelOn ?? false)),
];
