import type { ObservableResult } from '@opentelemetry/api';
import { METRICS, metricOptions } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { DURATION_BUCKETS_S, meter } from '@mapi/platform';

export type RunStatus = 'completed' | 'failed' | 'skipped';
export type StepOutcomeLabel = 'completed' | 'failed' | 'skipped' | 'retry';

/** Finer buckets under 1 s than DURATION_BUCKETS_S for the first-action latency (its aim is a 300 ms p99). */
const LATENCY_BUCKETS_S = [0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 2.5, 5, 10, 30, 60];

/**
 * The engine's figures (GET /metrics of the automation service): runs ended by status, each step's
 * duration by action type and outcome, the event → first action latency, and the due-steps backlog
 * (read from Postgres when scraped, one partial-index count). Labels are bounded: status, the action
 * types of the catalogue, outcome — never an organization, workflow or run. Created after telemetry
 * started (bootstrap); without a meter provider (unit tests) every instrument is a no-op.
 */
export class AutomationMetrics {
  private readonly runs = meter().createCounter(METRICS.workflowRuns.name, metricOptions(METRICS.workflowRuns));
  private readonly steps = meter().createHistogram(METRICS.workflowStepDuration.name, {
    ...metricOptions(METRICS.workflowStepDuration),
    advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
  });
  private readonly firstAction = meter().createHistogram(METRICS.workflowFirstActionLatency.name, {
    ...metricOptions(METRICS.workflowFirstActionLatency),
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS_S },
  });
  private readonly due = meter().createObservableGauge(METRICS.workflowStepsDue.name, metricOptions(METRICS.workflowStepsDue));
  private readonly observe = async (result: ObservableResult) => {
    if (!this.prisma) return;
    const [row] = await this.prisma.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM automation_steps WHERE status = 'pending' AND due_at <= now()`;
    result.observe(row?.n ?? 0);
  };

  constructor(private readonly prisma?: PrismaClient) {}

  start(): void {
    this.due.addCallback(this.observe);
  }

  stop(): void {
    this.due.removeCallback(this.observe);
  }

  runsEnded(status: RunStatus, n = 1): void {
    if (n > 0) this.runs.add(n, { status });
  }

  step(actionType: string, outcome: StepOutcomeLabel, seconds: number): void {
    this.steps.record(Math.max(0, seconds), { action_type: actionType, outcome });
  }

  /** The first action of a run was started `ms` after its event was created. */
  firstActionStarted(ms: number): void {
    if (Number.isFinite(ms)) this.firstAction.record(Math.max(0, ms) / 1000);
  }
}
