import type { Prisma, PrismaClient } from '@mapi/db';

/** A stored workflow, as `automation_workflows` holds it. */
export interface WorkflowRow {
  id: string;
  org_id: string;
  name: string;
  trigger: string;
  trigger_metadata: Prisma.JsonValue;
  actions: Prisma.JsonValue;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
  updated_by: string;
  deleted_at: Date | null;
}

export interface WorkflowFields {
  name: string;
  trigger: string;
  trigger_metadata: Prisma.InputJsonValue;
  actions: Prisma.InputJsonValue;
  is_active: boolean;
}

/** The organization's workflows; deleted ones (deleted_at) are left out of every read. The organization is part of every signature. */
export class WorkflowRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(orgId: string, id: string, fields: WorkflowFields, by: string): Promise<WorkflowRow> {
    return this.prisma.automationWorkflow.create({ data: { id, org_id: orgId, ...fields, updated_by: by } });
  }

  list(orgId: string, offset: number, limit: number): Promise<WorkflowRow[]> {
    return this.prisma.automationWorkflow.findMany({
      where: { org_id: orgId, deleted_at: null },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
    });
  }

  find(orgId: string, id: string): Promise<WorkflowRow | null> {
    return this.prisma.automationWorkflow.findFirst({ where: { org_id: orgId, id, deleted_at: null } });
  }

  /** The changed workflow, or null when the organization has no such (undeleted) workflow. */
  async update(orgId: string, id: string, fields: Partial<WorkflowFields>, by: string): Promise<WorkflowRow | null> {
    const { count } = await this.prisma.automationWorkflow.updateMany({
      where: { org_id: orgId, id, deleted_at: null },
      data: { ...fields, updated_by: by, updated_at: new Date() },
    });
    return count ? this.find(orgId, id) : null;
  }

  /** Marks it deleted and skips its runs' steps not yet done, in one transaction; false when there was none. */
  softDelete(orgId: string, id: string, by: string): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.automationWorkflow.updateMany({
        where: { org_id: orgId, id, deleted_at: null },
        data: { deleted_at: new Date(), is_active: false, updated_by: by },
      });
      if (!count) return false;
      await tx.$executeRaw`
        UPDATE automation_steps s SET status = 'skipped', error = 'the workflow was deleted', finished_at = now()
        FROM automation_runs r
        WHERE s.run_id = r.run_id AND r.org_id = ${orgId}::uuid AND r.workflow_id = ${id}::uuid AND s.org_id = ${orgId}::uuid AND s.status = 'pending'`;
      await tx.automationRun.updateMany({
        where: { org_id: orgId, workflow_id: id, status: 'running' },
        data: { status: 'skipped', reason: 'the workflow was deleted', finished_at: new Date() },
      });
      return true;
    });
  }
}
