import { MessageMetricsRpc, RightNowRpc, TeamMetricsRpc, TicketMetricsRpc } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { rpcHandler } from '@mapi/platform';
import { MetricsRepository } from './repositories/metrics-repository';
import { TeamMetricsRepository, TicketMetricsRepository } from './repositories/ticket-metrics-repository';
import type { ChatReach } from './scope';
import { MessageMetrics } from './usecases/message-metrics/message-metrics.usecase';
import { RightNow } from './usecases/right-now/right-now.usecase';
import { TeamMetrics } from './usecases/team-metrics/team-metrics.usecase';
import { TicketMetrics } from './usecases/ticket-metrics/ticket-metrics.usecase';

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
];
