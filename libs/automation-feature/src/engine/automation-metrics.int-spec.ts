import { metrics } from '@opentelemetry/api';
import {
  MeterProvider,
  MetricReader,
  type GaugeMetricData,
  type HistogramMetricData,
  type SumMetricData,
} from '@opentelemetry/sdk-metrics';
import { Errors, type WorkflowActionInput } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import type { DomainEvent } from '@mapi/events';
import { createOrg, newUuid, randomSuffix, useTestDatabase } from '@mapi/testing';
import pino from 'pino';
import { WorkflowRepository } from '../repositories/workflow-repository';
import type { RpcCaller } from './actions/action-context';
import { AutomationMetrics } from './automation-metrics';
import { startRuns } from './event-intake';
import { RunStore } from './run-store';
import { StepExecutor } from './step-executor';

class TestReader extends MetricReader {
  protected onForceFlush = () => Promise.resolve();
  protected onShutdown = () => Promise.resolve();
}

/**
 * The engine's metrics against Postgres: runs ended by status (completed, failed, skipped by the
 * organization's limit), step durations by action type and outcome, the event → first action
 * latency, and the due-steps backlog read when scraped. Labels carry no organization, workflow or run.
 */
describe('automation metrics (integration)', () => {
  const t = useTestDatabase('automation_metrics');
  const reader = new TestReader();
  let m: AutomationMetrics;
  beforeAll(() => {
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    m = new AutomationMetrics(t.prisma);
    m.start();
  });
  afterAll(() => {
    m.stop();
    metrics.disable();
  });
  const collect = async () => {
    const { resourceMetrics } = await reader.collect();
    return new Map(resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).map((x) => [x.descriptor.name, x]));
  };

  it('counts runs by outcome, times steps by action type, the first action after its event, and the due backlog', async () => {
    const org = (await createOrg(t.prisma)).id;
    const send: WorkflowActionInput = {
      id: 'reply',
      action_metadata: { type: 'send_message_to_chat', metadata: { message: 'hi', chat_id: 'trigger_chat' } },
      next: null,
    };
    await new WorkflowRepository(t.prisma).create(
      org,
      newUuid(),
      {
        name: `wf ${randomSuffix(2)}`,
        trigger: 'message.created',
        is_active: true,
        trigger_metadata: { org_phones: [], allow_internal_messages: false, first_action_id: 'reply' } as Prisma.InputJsonValue,
        actions: [send] as unknown as Prisma.InputJsonValue,
      },
      'test',
    );
    // the events are dated 50 ms back (so the first-action latency has a floor to check) and must still
    // be younger than the workflow, or the intake rightly ignores them as a backlog from before it
    await new Promise((resolve) => setTimeout(resolve, 100));
    const message = (body: string): DomainEvent => ({
      event_id: newUuid(),
      event_type: 'message.created',
      org_id: org,
      phone_id: 'phone-1',
      created_at: new Date(Date.now() - 50).toISOString(),
      data: {
        message_id: `m-${randomSuffix(3)}`,
        chat_id: `${Math.floor(Math.random() * 1e12)}@c.us`,
        org_phone: '14155550100',
        sender_phone: '14155550123',
        from_me: false,
        body,
      } as never,
    });
    const store = new RunStore(t.prisma, m);
    // three runs start (one over the limit of 2: skipped); the queue takes the first send and refuses the second (a 4xx: failed)
    await startRuns(t.prisma, store, [message('ok'), message('refused'), message('over')], { runsPerMinute: 2, chatRunsPerMinute: 100 });
    let sends = 0;
    const rpc = {
      call: (async () => {
        if (sends++ > 0) throw Errors.notFound('Chat not found');
        return { queue_id: newUuid(), queue_position: '1', unique_id: 'u' };
      }) as RpcCaller['call'],
    };

    let got = await collect();
    expect((got.get('mapi.workflow.steps.due') as GaugeMetricData).dataPoints[0].value).toBe(2);
    const executor = new StepExecutor(store, rpc, pino({ level: 'silent' }), {
      batch: 1,
      leaseMs: 30_000,
      maxAttempts: 3,
      idlePollMs: 30_000,
      fallbackPollMs: 500,
      metrics: m,
    });
    while ((await executor.round()).ran > 0);

    got = await collect();
    const runs = got.get('mapi.workflow.runs') as SumMetricData;
    expect(Object.fromEntries(runs.dataPoints.map((p) => [p.attributes.status, p.value]))).toEqual({ skipped: 1, completed: 1, failed: 1 });
    const steps = got.get('mapi.workflow.step.duration') as HistogramMetricData;
    expect(steps.dataPoints.map((p) => [p.attributes.action_type, p.attributes.outcome, p.value.count]).sort()).toEqual([
      ['send_message_to_chat', 'completed', 1],
      ['send_message_to_chat', 'failed', 1],
    ]);
    const first = (got.get('mapi.workflow.first_action.latency') as HistogramMetricData).dataPoints;
    expect(first).toHaveLength(1);
    expect(first[0].attributes).toEqual({});
    expect(first[0].value.count).toBe(2);
    expect(first[0].value.min).toBeGreaterThanOrEqual(0.05);
    expect((got.get('mapi.workflow.steps.due') as GaugeMetricData).dataPoints[0].value).toBe(0);
  });
});
