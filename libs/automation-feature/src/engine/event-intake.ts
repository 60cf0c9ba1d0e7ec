import { triggersOf } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { BatchConsumer, streamNames, type DomainEvent } from '@mapi/events';
import { idempotencyUuid } from '@mapi/platform';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { mapWorkflow } from '../map-workflow';
import { refusalOf } from './admission';
import { TX_OPTIONS, type RunStart, type RunStore } from './run-store';
import { eventChatId, type TriggerEvent } from './workflow-data';

export const AUTOMATION_DURABLE = 'automation';

export interface IntakeLimits {
  runsPerMinute: number;
  chatRunsPerMinute: number;
}

/** The run id of (workflow, event): the same on every redelivery, so a run is one row whatever happens. */
export function runIdOf(orgId: string, workflowId: string, eventId: string): string {
  return idempotencyUuid(orgId, 'automation-run', `${workflowId}|${eventId}`);
}

/**
 * Starts the runs a batch of events calls for, in ONE transaction: the organizations' enabled
 * workflows of the events' triggers are matched (trigger, org_phones, loop guard), the limits
 * counted under a per-organization lock (runs per organization per minute; runs per workflow and
 * chat per minute), and each new (workflow, event) pair gets its run — `skipped` with the reason when
 * over a limit, so it is recorded, not lost — and its first step. Pairs that already have a run
 * (a redelivery) are left alone. Answers how many steps became due.
 */
export async function startRuns(prisma: PrismaClient, store: RunStore, events: DomainEvent[], limits: IntakeLimits): Promise<number> {
  const candidates = events.filter((e) => triggersOf(e.event_type, e).length > 0);
  if (!candidates.length) return 0;
  return prisma.$transaction(async (tx) => {
    const orgIds = [...new Set(candidates.map((e) => e.org_id))].sort();
    const triggers = [...new Set(candidates.flatMap((e) => triggersOf(e.event_type, e)))];
    const workflows = (await tx.automationWorkflow.findMany({ where: { org_id: { in: orgIds }, is_active: true, deleted_at: null, trigger: { in: triggers } } })).map(mapWorkflow);
    if (!workflows.length) return 0;
    const orgsWithWork = [...new Set(workflows.map((w) => w.org_id))].sort();
    for (const org of orgsWithWork) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`automation-runs|${org}`}, 0))`;
    const seen = await store.existing(tx, candidates.map((e) => e.event_id));
    const orgCounts = await recentRunsByOrg(tx, orgsWithWork);
    const chatCounts = await recentRunsByChat(tx, workflows.map((w) => w.id));
    const starts: RunStart[] = [];
    for (const e of candidates) {
      const event: TriggerEvent = { event_id: e.event_id, event_type: e.event_type, phone_id: e.phone_id, created_at: e.created_at, data: e.data as unknown as Record<string, unknown>, previous_attributes: (e.previous_attributes ?? null) as Record<string, unknown> | null };
      for (const w of workflows) {
        if (w.org_id !== e.org_id || !triggersOf(e.event_type, e).includes(w.trigger as never) || seen.has(`${w.id}|${e.event_id}`)) continue;
        if (refusalOf(w, event) !== null || happenedBefore(e, w)) continue;
        seen.add(`${w.id}|${e.event_id}`);
        const chatId = eventChatId(event);
        const chatKey = `${w.id}|${chatId}`;
        let skipped: string | null = null;
        if ((orgCounts.get(w.org_id) ?? 0) >= limits.runsPerMinute) skipped = `over the organization's limit of ${limits.runsPerMinute} runs per minute`;
        else if (chatId && (chatCounts.get(chatKey) ?? 0) >= limits.chatRunsPerMinute) skipped = `loop guard: over ${limits.chatRunsPerMinute} runs of this workflow per chat per minute`;
        if (!skipped) {
          orgCounts.set(w.org_id, (orgCounts.get(w.org_id) ?? 0) + 1);
          if (chatId) chatCounts.set(chatKey, (chatCounts.get(chatKey) ?? 0) + 1);
        }
        starts.push({
          run_id: runIdOf(w.org_id, w.id, e.event_id),
          workflow: w,
          event: { event_id: e.event_id, event_type: e.event_type, phone_id: e.phone_id, chat_id: chatId, raw: event as unknown as Prisma.InputJsonValue },
          skipped,
        });
      }
    }
    return store.start(tx, starts);
  }, TX_OPTIONS);
}

/** An event older than the workflow (a backlog consumed after it was created) does not start it. */
function happenedBefore(e: DomainEvent, w: { created_at: string }): boolean {
  const at = Date.parse(e.created_at);
  return Number.isFinite(at) && at < Date.parse(w.created_at);
}

async function recentRunsByOrg(tx: Prisma.TransactionClient, orgIds: string[]): Promise<Map<string, number>> {
  const rows = await tx.$queryRaw<{ org_id: string; n: number }[]>`
    SELECT org_id::text, count(*)::int AS n FROM automation_runs
    WHERE org_id = ANY(${orgIds}::uuid[]) AND started_at > now() - interval '1 minute' AND status <> 'skipped'
    GROUP BY org_id`;
  return new Map(rows.map((r) => [r.org_id, r.n]));
}

async function recentRunsByChat(tx: Prisma.TransactionClient, workflowIds: string[]): Promise<Map<string, number>> {
  const rows = await tx.$queryRaw<{ workflow_id: string; chat_id: string; n: number }[]>`
    SELECT workflow_id::text, chat_id, count(*)::int AS n FROM automation_runs
    WHERE workflow_id = ANY(${workflowIds}::uuid[]) AND chat_id IS NOT NULL AND started_at > now() - interval '1 minute' AND status <> 'skipped'
    GROUP BY workflow_id, chat_id`;
  return new Map(rows.map((r) => [`${r.workflow_id}|${r.chat_id}`, r.n]));
}

/**
 * The durable JetStream consumer `automation` of the EVENTS stream: batches of events start their runs
 * (startRuns, one transaction) and are acked only after it commits; a crash before the ack
 * redelivers them and the unique (workflow_id, event_id) makes that start nothing twice.
 */
export class EventIntake {
  private readonly consumer: BatchConsumer<DomainEvent>;

  constructor(
    nc: NatsConnection,
    namespace: string,
    prisma: PrismaClient,
    store: RunStore,
    limits: IntakeLimits,
    onStepsDue: () => void,
    logger: Logger,
    ackWaitMs: number,
  ) {
    this.consumer = new BatchConsumer<DomainEvent>(
      nc,
      { stream: streamNames(namespace).events, durable: AUTOMATION_DURABLE, filterSubject: `${namespace}.events.>`, batchSize: 200, ackWaitMs },
      async (items) => {
        const events = items.map((i) => i.data).filter((e): e is DomainEvent => Boolean(e && typeof e === 'object' && e.event_id && e.org_id && e.event_type));
        if (await startRuns(prisma, store, events, limits)) onStepsDue();
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

