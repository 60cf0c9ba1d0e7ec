import type { Prisma } from '@mapi/db';
import type { RunStart } from './run-starts';

type Tx = Prisma.TransactionClient;

export interface IntakeLimits {
  runsPerMinute: number;
  chatRunsPerMinute: number;
}

/** A run over a limit: recorded `skipped` with the reason. */
export interface Skip {
  run_id: string;
  org_id: string;
  reason: string;
}

/**
 * Decides which of the runs this transaction has just written (insertStarts, not yet committed) go
 * over a limit, and counts the others. Only this part is serialised per organization (a transaction
 * advisory lock, taken in organization order and held to the commit), so the intakes of several
 * replicas write their rows side by side and take turns only for a few small statements and the commit.
 *
 * - Runs per organization per minute: counted in `automation_run_counts`, one row per organization
 *   and second (the database's clock) holding the runs admitted in it; the window is the last 60
 *   such seconds (a run counts for 59–60 s), summed from at most 60 rows instead of counting the
 *   minute's runs (up to 12,000 rows a batch at 200 runs/s). Rows older than the window are deleted
 *   here too, so the table holds about a minute per organization.
 * - Loop guard, runs per (workflow, chat) per minute: counted over the runs not skipped of the batch's
 *   pairs, this transaction's own rows left out (they are what is being decided).
 *
 * In batch order, as before: a run is admitted while both counts are under their limits.
 */
export async function overLimits(tx: Tx, runs: RunStart[], limits: IntakeLimits): Promise<Skip[]> {
  if (!runs.length) return [];
  const orgs = [...new Set(runs.map((r) => r.workflow.org_id))].sort();
  for (const org of orgs) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`automation-runs|${org}`}, 0))`;
  const pairs = runs.flatMap((r) => (r.event.chat_id ? [{ workflow_id: r.workflow.id, chat_id: r.event.chat_id }] : []));
  const counts = await tx.$queryRaw<{ kind: string; key: string; n: number }[]>`
    SELECT 'org' AS kind, org_id::text AS key, sum(runs)::int AS n FROM automation_run_counts
    WHERE org_id = ANY(${orgs}::uuid[]) AND second > floor(extract(epoch FROM clock_timestamp()))::bigint - 60
    GROUP BY org_id
    UNION ALL
    SELECT 'chat', r.workflow_id::text || '|' || r.chat_id, count(*)::int
    FROM (SELECT DISTINCT workflow_id, chat_id FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS p(workflow_id uuid, chat_id text)) p
    JOIN automation_runs r ON r.workflow_id = p.workflow_id AND r.chat_id = p.chat_id
    WHERE r.started_at > now() - interval '1 minute' AND r.status <> 'skipped'
    GROUP BY r.workflow_id, r.chat_id`;
  const orgCount = new Map(counts.filter((c) => c.kind === 'org').map((c) => [c.key, c.n]));
  const chatCount = new Map(counts.filter((c) => c.kind === 'chat').map((c) => [c.key, c.n]));
  // this transaction's own rows are in the chat counts (its writes are visible to it): take them out
  for (const p of pairs) chatCount.set(`${p.workflow_id}|${p.chat_id}`, (chatCount.get(`${p.workflow_id}|${p.chat_id}`) ?? 0) - 1);
  const admitted = new Map<string, number>();
  const skips: Skip[] = [];
  for (const r of runs) {
    const org = r.workflow.org_id;
    const chatKey = r.event.chat_id ? `${r.workflow.id}|${r.event.chat_id}` : null;
    let reason: string | null = null;
    if ((orgCount.get(org) ?? 0) >= limits.runsPerMinute)
      reason = `over the organization's limit of ${limits.runsPerMinute} runs per minute`;
    else if (chatKey && (chatCount.get(chatKey) ?? 0) >= limits.chatRunsPerMinute)
      reason = `loop guard: over ${limits.chatRunsPerMinute} runs of this workflow per chat per minute`;
    if (reason) {
      skips.push({ run_id: r.run_id, org_id: org, reason });
      continue;
    }
    orgCount.set(org, (orgCount.get(org) ?? 0) + 1);
    admitted.set(org, (admitted.get(org) ?? 0) + 1);
    if (chatKey) chatCount.set(chatKey, (chatCount.get(chatKey) ?? 0) + 1);
  }
  const add = [...admitted].map(([org_id, n]) => ({ org_id, n }));
  await tx.$executeRaw`
    WITH gone AS (
      DELETE FROM automation_run_counts WHERE org_id = ANY(${orgs}::uuid[]) AND second <= floor(extract(epoch FROM clock_timestamp()))::bigint - 60)
    INSERT INTO automation_run_counts (org_id, second, runs)
    SELECT v.org_id, floor(extract(epoch FROM clock_timestamp()))::bigint, v.n FROM jsonb_to_recordset(${JSON.stringify(add)}::jsonb) AS v(org_id uuid, n int)
    ON CONFLICT (org_id, second) DO UPDATE SET runs = automation_run_counts.runs + excluded.runs`;
  return skips;
}
