import type { Prisma, PrismaClient } from '@mapi/db';

export interface StepRow {
  step_id: string;
  run_id: string;
  org_id: string;
  action_id: string;
  action_type: string;
  status: string;
  due_at: Date;
  claimed_until: Date | null;
  attempts: number;
  result: Prisma.JsonValue | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface RunRow {
  run_id: string;
  org_id: string;
  workflow_id: string;
  event_id: string;
  event_type: string;
  phone_id: string | null;
  chat_id: string | null;
  event: Prisma.JsonValue;
  definition: Prisma.JsonValue;
  status: string;
  reason: string | null;
  started_at: Date;
  finished_at: Date | null;
}

export type RunWithSteps = RunRow & { steps: StepRow[] };

/** Runs and their steps, read for the run log. The organization is part of every signature. */
export class RunRepository {
  constructor(private readonly prisma: Prisma.TransactionClient | PrismaClient) {}

  async list(
    orgId: string,
    workflowId: string,
    status: string | undefined,
    offset: number,
    limit: number,
    firstCondition?: 'passed' | 'failed',
  ): Promise<RunWithSteps[]> {
    if (firstCondition)
      return this.withSteps(orgId, await this.listByFirstCondition(orgId, workflowId, status, offset, limit, firstCondition === 'passed'));
    const runs = await this.prisma.automationRun.findMany({
      where: { org_id: orgId, workflow_id: workflowId, ...(status ? { status } : {}) },
      orderBy: [{ started_at: 'desc' }, { run_id: 'desc' }],
      skip: offset,
      take: limit,
    });
    return this.withSteps(orgId, runs);
  }

  /**
   * Runs whose first action (the run's own copy of first_action_id) is a completed validate_action
   * with `passed` as asked: walked newest first over (org_id, workflow_id, started_at, run_id), each
   * probed by its step's unique (run_id, action_id).
   */
  private listByFirstCondition(
    orgId: string,
    workflowId: string,
    status: string | undefined,
    offset: number,
    limit: number,
    passed: boolean,
  ): Promise<RunRow[]> {
    return this.prisma.$queryRaw<RunRow[]>`
      SELECT r.* FROM automation_runs r
      WHERE r.org_id = ${orgId}::uuid AND r.workflow_id = ${workflowId}::uuid
        AND (${status ?? null}::text IS NULL OR r.status = ${status ?? null}::text)
        AND EXISTS (
          SELECT 1 FROM automation_steps s
          WHERE s.run_id = r.run_id AND s.org_id = r.org_id AND s.action_id = r.definition->'trigger_metadata'->>'first_action_id'
            AND s.action_type = 'validate_action' AND s.status = 'completed' AND s.result->>'passed' = ${String(passed)})
      ORDER BY r.started_at DESC, r.run_id DESC
      OFFSET ${offset} LIMIT ${limit}`;
  }

  async find(orgId: string, runId: string): Promise<RunWithSteps | null> {
    const run = await this.prisma.automationRun.findFirst({ where: { org_id: orgId, run_id: runId } });
    return run ? (await this.withSteps(orgId, [run]))[0] : null;
  }

  private async withSteps(orgId: string, runs: RunRow[]): Promise<RunWithSteps[]> {
    if (!runs.length) return [];
    const steps = await this.prisma.automationStep.findMany({
      where: { org_id: orgId, run_id: { in: runs.map((r) => r.run_id) } },
      orderBy: [{ created_at: 'asc' }, { step_id: 'asc' }],
    });
    const byRun = new Map<string, StepRow[]>();
    for (const s of steps) byRun.set(s.run_id, [...(byRun.get(s.run_id) ?? []), s]);
    return runs.map((r) => ({ ...r, steps: byRun.get(r.run_id) ?? [] }));
  }
}
