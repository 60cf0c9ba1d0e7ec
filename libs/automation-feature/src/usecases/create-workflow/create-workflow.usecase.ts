import { randomUUID } from 'node:crypto';
import type { CreateWorkflowRequest, Workflow } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { mapWorkflow } from '../../map-workflow';
import type { WorkflowRepository } from '../../repositories/workflow-repository';

/** POST /workflows/create: the definition is checked by its contract (graph, action types), then stored. */
export class CreateWorkflow {
  constructor(private readonly workflows: WorkflowRepository) {}

  async execute({ ctx, body }: CreateWorkflowRequest): Promise<Workflow> {
    const row = await this.workflows.create(
      ctx.org_id,
      randomUUID(),
      {
        name: body.name,
        trigger: body.trigger,
        trigger_metadata: body.trigger_metadata as Prisma.InputJsonValue,
        actions: body.actions as Prisma.InputJsonValue,
        is_active: body.is_active ?? true,
      },
      ctx.token_id,
    );
    return mapWorkflow(row);
  }
}
