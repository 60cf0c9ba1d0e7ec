import { triggersOf, type Workflow } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { BatchConsumer, streamNames, type DomainEvent } from '@mapi/events';
import { idempotencyUuid } from '@mapi/platform';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { refusalOf } from './admission';
import { EnabledWorkflows } from './enabled-workflows';
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
 * (a redelivery) are left alone. The workflows come from `workflows` (the intake's cache, probed for
 * changes in this transaction) or, without it, are read. Answers how many steps became due.
 */
export async function startRuns(prisma: PrismaClient, store: RunStore, events: DomainEvent[], limits: IntakeLimits, workflows: EnabledWorkflows = new EnabledWorkflows()): Promise<number> {
  const candidates = events.map((e) => ({ e, triggers: triggersOf(e.event_type, e) as string[] })).filter((c) => c.triggers.length > 0);
  if (!candidates.length) return 0;
  const started: RunStart[] = [];
  const due = await prisma.$transaction(async (tx) => {
    const orgIds = [...new Set(candidates.map((c) => c.e.org_id))].sort();
    const byOrg = await workflows.of(tx, orgIds);
    const matches: { e: DomainEvent; event: TriggerEvent; w: Workflow; chatId: string | null }[] = [];
    for (const { e, triggers } of candidates) {
      const event: TriggerEvent = { event_id: e.event_id, event_type: e.event_type, phone_id: e.phone_id, created_at: e.created_at, data: e.data as unknown as Record<string, unknown>, previous_attributes: (e.previous_attributes ?? null) as Record<string, unknown> | null };
      for (const trigger of triggers) {
        for (const w of byOrg.get(e.org_id)?.get(trigger) ?? []) {
          if (refusalOf(w, event) !== null || happenedBefore(e, w)) continue;
          matches.push({ e, event, w, chatId: eventChatId(event) });
        }
      }
    }
    if (!matches.length) return 0;
    const orgsWithWork = [...new Set(matches.map((m) => m.w.org_id))].sort();
    for (const org of orgsWithWork) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`automation-runs|${org}`}, 0))`;
    const seen = await store.existing(tx, [...new Set(matches.map((m) => m.e.event_id))]);
    const orgCounts = await recentRunsByOrg(tx, orgsWithWork, limits.runsPerMinute);
    const chatCounts = await recentRunsByChat(tx, matches.flatMap((m) => (m.chatId ? [{ workflow_id: m.w.id, chat_id: m.chatId }] : [])));
    for (const { e, event, w, chatId } of matches) {
      if (seen.has(`${w.id}|${e.event_id}`)) continue;
      seen.add(`${w.id}|${e.event_id}`);
      const chatKey = `${w.id}|${chatId}`;
      let skipped: string | null = null;
      if ((orgCounts.get(w.org_id) ?? 0) >= limits.runsPerMinute) skipped = `over the organization's limit of ${limits.runsPerMinute} runs per minute`;
      else if (chatId && (chatCounts.get(chatKey) ?? 0) >= limits.chatRunsPerMinute) skipped = `loop guard: over ${limits.chatRunsPerMinute} runs of this workflow per chat per minute`;
      if (!skipped) {
        orgCounts.set(w.org_id, (orgCounts.get(w.org_id) ?? 0) + 1);
        if (chatId) chatCounts.set(chatKey, (chatCounts.get(chatKey) ?? 0) + 1);
      }
      started.push({
        run_id: runIdOf(w.org_id, w.id, e.event_id),
        workflow: w,
        event: { event_id: e.event_id, event_type: e.event_type, phone_id: e.phone_id, chat_id: chatId, raw: event as unknown as Prisma.InputJsonValue },
        skipped,
      });
    }
    return store.start(tx, started);
  }, TX_OPTIONS);
  store.metrics?.runsEnded('skipped', started.filter((s) => s.skipped).length);
  store.metrics?.runsEnded('completed', started.filter((s) => !s.skipped && !s.workflow.trigger_metadata.first_action_id).length);
  return due;
}

/** An event older than the workflow (a backlog consumed after it was created) does not start it. */
function happenedBefore(e: DomainEvent, w: { created_at: string }): boolean {
  const at = Date.parse(e.created_at);
  return Number.isFinite(at) && at < Date.parse(w.created_at);
}

/** Runs of the last minute per organization, counted up to the limit (what the check needs): a busy organization's minute is not scanned whole per batch. */
async function recentRunsByOrg(tx: Prisma.TransactionClient, orgIds: string[], limit: number): Promise<Map<string, number>> {
  const rows = await tx.$queryRaw<{ org_id: string; n: number }[]>`
    SELECT o.org_id::text, (SELECT count(*)::int FROM (
      SELECT 1 FROM automation_runs r WHERE r.org_id = o.org_id AND r.started_at > now() - interval '1 minute' AND r.status <> 'skipped' LIMIT ${limit}) x) AS n
    FROM unnest(${orgIds}::uuid[]) AS o(org_id)`;
  return new Map(rows.map((r) => [r.org_id, r.n]));
}

/** Runs of the last minute per (workflow, chat), for the pairs the batch would start only. */
async function recentRunsByChat(tx: Prisma.TransactionClient, pairs: { workflow_id: string; chat_id: string }[]): Promise<Map<string, number>> {
  if (!pairs.length) return new Map();
  const rows = await tx.$queryRaw<{ workflow_id: string; chat_id: string; n: number }[]>`
    SELECT r.workflow_id::text, r.chat_id, count(*)::int AS n
    FROM (SELECT DISTINCT workflow_id, chat_id FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS p(workflow_id uuid, chat_id text)) p
    JOIN automation_runs r ON r.workflow_id = p.workflow_id AND r.chat_id = p.chat_id
    WHERE r.started_at > now() - interval '1 minute' AND r.status <> 'skipped'
    GROUP BY r.workflow_id, r.chat_id`;
  return new Map(rows.map((r) => [`${r.workflow_id}|${r.chat_id}`, r.n]));
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
  ) {
    this.consumer = new BatchConsumer<DomainEvent>(
      nc,
      { stream: streamNames(namespace).events, durable: AUTOMATION_DURABLE, filterSubject: `${namespace}.events.>`, batchSize: 200, ackWaitMs },
      async (items) => {
        const events = items.map((i) => i.data).filter((e): e is DomainEvent => Boolean(e && typeof e === 'object' && e.event_id && e.org_id && e.event_type));
        if (await startRuns(prisma, store, events, limits, this.workflows)) onStepsDue();
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

