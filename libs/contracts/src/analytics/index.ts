import type { RouteContract } from '../http/define-route';
import { MessageMetricsRoute } from './message-metrics/message-metrics.contract';
import { RightNowRoute } from './right-now/right-now.contract';
import { TicketMetricsRoute } from './ticket-metrics/ticket-metrics.contract';
import { TeamMetricsRoute } from './team-metrics/team-metrics.contract';

export * from './period/period';
export * from './csv/csv';
export * from './message-metrics/message-metrics.contract';
export * from './right-now/right-now.contract';
export * from './ticket-metrics/ticket-metrics.contract';
export * from './team-metrics/team-metrics.contract';

/** The analytics service's public routes: message, ticket and team metrics and "right now" (issue 34, docs/services/analytics.md). */
export const ANALYTICS_ROUTES: readonly RouteContract[] = [MessageMetricsRoute, RightNowRoute, TicketMetricsRoute, TeamMetricsRoute];
