import {
  CreateSlaPolicyRpc,
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
import type { ChatReach } from './scope';
import { SlaPolicyRepository } from './sla/sla-policy-repository';
import { MessageMetrics } from './usecases/message-metrics/message-metrics.usecase';
import { RightNow } from './usecases/right-now/right-now.usecase';
import { TeamMetrics } from './usecases/team-metrics/team-metrics.usecase';
import { TicketMetrics } from './usecases/ticket-metrics/ticket-metrics.usecase';
import { GetBusinessHours } from './usecases/get-business-hours/get-business-hours.usecase';
import { PutBusinessHours } from './usecases/put-business-hours/put-business-hours.usecase';
import { DeleteBusinessHours } from './usecases/delete-business-hours/delete-business-hours.usecase';
import { ListSlaPolicies } from './usecases/list-sla-policies/list-sla-policies.usecase';
import { CreateSlaPolicy } from './usecases/create-sla-policy/create-sla-policy.usecase';
import { GetSlaPolicy } from './usecases/get-sla-policy/get-sla-policy.usecase';
import { UpdateSlaPolicy } from './usecases/update-sla-policy/update-sla-policy.usecase';
import { DeleteSlaPolicy } from './usecases/delete-sla-policy/delete-sla-policy.usecase';

export interface AnalyticsDeps {
  prisma: PrismaClient;
  /** A member's reach over chat copies, decided by the chats service (chats.v1.chat.copies-in-reach). */
  reach: ChatReach;
}

const serve = rpcHandler<AnalyticsDeps>();

/** What the analytics service answers: one line per operation, its contract and its use case. */
export const ANALYTICS_HANDLERS: ReturnType<typeof serve>[] = [
  serve(MessageMetricsRpc, (d) => new MessageMetrics(new MetricsRepository(d.prisma), d.reach)),
  serve(RightNowRpc, (d) => new RightNow(new MetricsRepository(d.prisma), new TicketMetricsRepository(d.prisma), d.reach)),
  serve(TicketMetricsRpc, (d) => new TicketMetrics(new TicketMetricsRepository(d.prisma), d.reach)),
  serve(
    TeamMetricsRpc,
    (d) =>
      new TeamMetrics(new TeamMetricsRepository(d.prisma), new MetricsRepository(d.prisma), new TicketMetricsRepository(d.prisma), d.reach),
  ),
  serve(GetBusinessHoursRpc, (d) => new GetBusinessHours(new BusinessHoursRepository(d.prisma))),
  serve(PutBusinessHoursRpc, (d) => new PutBusinessHours(new BusinessHoursRepository(d.prisma))),
  serve(DeleteBusinessHoursRpc, (d) => new DeleteBusinessHours(new BusinessHoursRepository(d.prisma))),
  serve(ListSlaPoliciesRpc, (d) => new ListSlaPolicies(new SlaPolicyRepository(d.prisma))),
  serve(CreateSlaPolicyRpc, (d) => new CreateSlaPolicy(new SlaPolicyRepository(d.prisma))),
  serve(GetSlaPolicyRpc, (d) => new GetSlaPolicy(new SlaPolicyRepository(d.prisma))),
  serve(UpdateSlaPolicyRpc, (d) => new UpdateSlaPolicy(new SlaPolicyRepository(d.prisma))),
  serve(DeleteSlaPolicyRpc, (d) => new DeleteSlaPolicy(new SlaPolicyRepository(d.prisma))),
];
