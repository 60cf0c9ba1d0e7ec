import type { RouteContract } from '../http/define-route';
import { MessageMetricsRoute } from './message-metrics/message-metrics.contract';
import { RightNowRoute } from './right-now/right-now.contract';

export * from './period/period';
export * from './message-metrics/message-metrics.contract';
export * from './right-now/right-now.contract';

/** The analytics service's public routes: message metrics and "right now" (issue 34, docs/services/analytics.md). */
export const ANALYTICS_ROUTES: readonly RouteContract[] = [MessageMetricsRoute, RightNowRoute];
