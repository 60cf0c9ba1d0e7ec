import { triggersOf } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { BatchConsumer, ensureStreams, streamNames, type DomainEvent } from '@mapi/events';
import { idempotencyUuid } from '@mapi/platform';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { refusalOf } from './admission';
import { EnabledWorkflows } from './enabled-workflows';
import { overLimits, type IntakeLimits } from './run-limits';
import { finishStarts, insertStarts, skipStarted, type FirstStepTaker, type HandoffClaim, type RunStart } from './run-starts';
import { TX_OPTIONS, type ClaimedStep, type RunStore } from './run-store';
import { eventChatId, type TriggerEvent } from './workflow-data';

export const AUTOMATION_DURABLE = 'automation';
export type { IntakeLimits } from './run-limits';

/** The run id of (workflow, event): the same on every redelivery, so a run is one row whatever happens. */
export function runIdOf(orgId: string, workflowId: string, eventId: string): string {
  return idempotencyUuid(orgId, 'automation-run', `${workflowId}|${eventId}`);
}

/** What a batch started: first steps left for any executor to claim, and those claimed for the local one. */
export interface Started {
  due: number;
  handed: ClaimedStep[];
}

/**
 * Starts the runs a batch of events calls for, in ONE transaction: the organizations' enabled
 * workflows of the events' triggers are matched (trigger, org_phones, loop guard), each new
 * (workflow, event) pair gets its run and first step (insertStarts: pairs that already have a run, a
 * redelivery, are left alone), then the limits decide under a per-organization lock which of them
 * are over (overLimits: runs per organization per minute, runs per workflow and chat per minute) —
 * those are recorded `skipped` with the reason and lose their step. The workflows come from
 * `workflows` (the intake's cache, probed for changes in this transaction) or, without it, are read.
 * With `handoff`, first steps are claimed for the local executor in the same transaction (`handed`).
 */
export async function startRuns(
  prisma: PrismaClient,
  store: RunStore,
  events: DomainEvent[],
  limits: IntakeLimits,
  workflows: EnabledWorkflows = new EnabledWorkflows(),
  handoff: HandoffClaim | null = null,
): Promise<Started> {
  const candidates = events.map((e) => ({ e, triggers: triggersOf(e.event_type, e) as string[] })).filter((c) => c.triggers.length > 0);
  const none: Started = { due: 0, handed: [] };
  if (!candidates.length) return none;
  let ended = { skipped: 0, completed: 0 };
  const started = await prisma.$transaction(async (tx) => {
    const orgIds = [...new Set(candidates.map((c) => c.e.org_id))].sort();
    const byOrg = await workflows.of(tx, orgIds);
    const starts = new Map<string, RunStart>();
    for (const { e, triggers } of candidates) {
      const event: TriggerEvent = {
        event_id: e.event_id,
        event_type: e.event_type,
        phone_id: e.phone_id,
        created_at: e.created_at,
        data: e.data as unknown as Record<string, unknown>,
        previous_attributes: (e.previous_attributes ?? null) as Record<string, unknown> | null,
      };
      for (const trigger of triggers) {
        for (const w of byOrg.get(e.org_id)?.get(trigger)?.candidates(event) ?? []) {
          const run_id = runIdOf(w.org_id, w.id, e.event_id);
          if (starts.has(run_id) || refusalOf(w, event) !== null || happenedBefore(e, w)) continue;
          starts.set(run_id, {
            run_id,
            workflow: w,
            event: {
              event_id: e.event_id,
              event_type: e.event_type,
              phone_id: e.phone_id,
              chat_id: eventChatId(event),
              raw: event as unknown as Prisma.InputJsonValue,
            },
          });
        }
      }
    }
    if (!starts.size) return none;
    const inserted = await insertStarts(tx, [...starts.values()], handoff);
    const skips = await overLimits(tx, inserted.runs, limits);
    await skipStarted(tx, skips);
    const skippedIds = new Set(skips.map((s) => s.run_id));
    const steps = inserted.steps.filter((s) => !skippedIds.has(s.run_id));
    const completed = inserted.runs
      .filter((r) => !skippedIds.has(r.run_id) && !r.workflow.trigger_metadata.first_action_id)
      .map((r) => ({ run_id: r.run_id, org_id: r.workflow.org_id }));
    await finishStarts(tx, completed, steps.length > 0);
    ended = { skipped: skips.length, completed: completed.length };
    return { due: steps.filter((s) => !s.claimed).length, handed: steps.filter((s) => s.claimed).map(({ claimed: _claimed, ...s }) => s) };
  }, TX_OPTIONS);
  store.metrics?.runsEnded('skipped', ended.skipped);
  store.metrics?.runsEnded('completed', ended.completed);
  return started;
}

/** An event older than the workflow (a backlog consumed after it was created) does not start it. */
function happenedBefore(e: DomainEvent, w: { created_at: string }): boolean {
  const at = Date.parse(e.created_at);
  return Number.isFinite(at) && at < Date.parse(w.created_at);
}

/**
 * The durable JetStream consumer `automation` of the EVENTS stream: batches of events start their runs
 * (startRuns, one transaction) and are acked only after it commits; a crash before the ack
 * redelivers them and the unique (workflow_id, event_id) makes that start nothing twice.
 */
export class EventIntake {
  private readonly consumer: BatchConsumer<DomainEvent>;
  /** The organizations' enabled workflows, probed for changes in each batch's transaction. */
  private readonly workflows = new EnabledWorkflows();

  constructor(
    nc: NatsConnection,
    namespace: string,
    prisma: PrismaClient,
    store: RunStore,
    limits: IntakeLimits,
    onStepsDue: () => void,
    logger: Logger,
    ackWaitMs: number,
    /** The local executor: first steps are claimed for it in the batch's transaction and handed to it after the commit (absent: every step is claimed by the executors' rounds). */
    taker?: FirstStepTaker,
  ) {
    this.consumer = new BatchConsumer<DomainEvent>(
      nc,
      {
        stream: streamNames(namespace).events,
        durable: AUTOMATION_DURABLE,
        filterSubject: `${namespace}.events.>`,
        batchSize: 200,
        ackWaitMs,
        ensureStream: () => ensureStreams(nc, namespace),
        log: logger,
      },
      async (items) => {
        const events = items
          .map((i) => i.data)
          .filter((e): e is DomainEvent => Boolean(e && typeof e === 'object' && e.event_id && e.org_id && e.event_type));
        const { due, handed } = await startRuns(prisma, store, events, limits, this.workflows, taker?.offer() ?? null);
        if (handed.length) taker?.take(handed);
        if (due) onStepsDue();
      },
      (err) => logger.error({ err }, 'starting workflow runs failed; the events will be redelivered'),
    );
  }

  start(): Promise<void> {
    return this.consumer.start();
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }
}
