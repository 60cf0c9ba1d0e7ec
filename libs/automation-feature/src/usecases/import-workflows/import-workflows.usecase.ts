import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { CreateWorkflowBody, type ImportBatchResponse, type ImportItemResult, type ImportWorkflowsRequest } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `updated_by` of a workflow the importer made: switched off until an owner switches it on. */
export const IMPORTED_BY = 'import';

const derived = (orgId: string, sourceId: string) => {
  const h = createHash('sha256').update(`${orgId}/workflow/${sourceId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/**
 * automation.v1.import.workflows (the importer): workflow definitions checked as a create checks
 * them, made switched off; a later run updates the definition and never switches one on or off.
 */
export class ImportWorkflows {
  constructor(private readonly prisma: PrismaClient) {}

  async execute({ ctx, body }: ImportWorkflowsRequest): Promise<ImportBatchResponse> {
    const results: ImportItemResult[] = [];
    for (const raw of body.items) {
      const item = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
      const sourceId = typeof item.source_id === 'string' ? item.source_id : '';
      const def = CreateWorkflowBody.safeParse({
        name: item.name,
        trigger: item.trigger,
        trigger_metadata: item.trigger_metadata,
        actions: item.actions,
        is_active: false,
      });
      if (!sourceId || !def.success) {
        const issue = def.success ? null : def.error.issues[0];
        results.push({
          source_id: sourceId,
          target_id: null,
          outcome: 'failed',
          reason: issue ? `${issue.path.join('.')}: ${issue.message}` : 'source_id is missing',
        });
        continue;
      }
      const data = {
        name: def.data.name,
        trigger: def.data.trigger,
        trigger_metadata: def.data.trigger_metadata as Prisma.InputJsonValue,
        actions: def.data.actions as Prisma.InputJsonValue,
      };
      results.push(await this.one(ctx.org_id, sourceId, typeof item.target_id === 'string' ? item.target_id : undefined, data));
    }
    return { results };
  }

  private async one(
    orgId: string,
    sourceId: string,
    targetId: string | undefined,
    data: { name: string; trigger: string; trigger_metadata: Prisma.InputJsonValue; actions: Prisma.InputJsonValue },
  ): Promise<ImportItemResult> {
    let free: string | null = null;
    for (const candidate of [targetId, sourceId, derived(orgId, sourceId)]) {
      if (!candidate || !UUID.test(candidate)) continue;
      const row = await this.prisma.automationWorkflow.findUnique({ where: { id: candidate } });
      if (row && row.org_id === orgId) {
        const same =
          row.name === data.name &&
          row.trigger === data.trigger &&
          isDeepStrictEqual(row.trigger_metadata, data.trigger_metadata) &&
          isDeepStrictEqual(row.actions, data.actions);
        if (!same)
          await this.prisma.automationWorkflow.update({
            where: { id: row.id },
            data: { ...data, updated_at: new Date(), updated_by: IMPORTED_BY },
          });
        return { source_id: sourceId, target_id: row.id, outcome: same ? 'skipped' : 'updated' };
      }
      if (!row && free === null) free = candidate;
    }
    const id = free ?? derived(orgId, sourceId);
    await this.prisma.automationWorkflow.create({ data: { ...data, id, org_id: orgId, is_active: false, updated_by: IMPORTED_BY } });
    return { source_id: sourceId, target_id: id, outcome: 'created' };
  }
}
