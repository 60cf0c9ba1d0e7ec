import { Errors, definitionIssues, type UpdateWorkflowRequest, type Workflow, type WorkflowDefinition } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { mapWorkflow } from '../../map-workflow';
import { workflowNotFound } from '../../not-found';
import type { WorkflowRepository } from '../../repositories/workflow-repository';

/**
 * PATCH /workflows/{workflow_id}: the definition that results (the stored one with the fields given)
 * is checked whole, each problem 422 on its body field, before anything is written.
 */
export class UpdateWorkflow {
  constructor(private readonly workflows: WorkflowRepository) {}

  async execute({ ctx, params, body }: UpdateWorkflowRequest): Promise<Workflow> {
    const current = await this.workflows.find(ctx.org_id, params.workflow_id);
    if (!current) throw workflowNotFound();
    const now = mapWorkflow(current);
    const definition: WorkflowDefinition = {
      trigger: body.trigger ?? now.trigger,
      trigger_metadata: body.trigger_metadata ?? now.trigger_metadata,
      actions: body.actions ?? now.actions,
    };
    const issues = definitionIssues(definition);
    if (issues.length) throw Errors.validation(Object.fromEntries(issues.map((i) => [`body.${i.path.join('.')}`, { message: i.message }])));
    const changes = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.trigger !== undefined ? { trigger: body.trigger } : {}),
      ...(body.trigger_metadata !== undefined ? { trigger_metadata: body.trigger_metadata as Prisma.InputJsonValue } : {}),
      ...(body.actions !== undefined ? { actions: body.actions as Prisma.InputJsonValue } : {}),
      ...(body.is_active !== undefined ? { is_active: body.is_active } : {}),
    };
    const row = await this.workflows.update(ctx.org_id, params.workflow_id, changes, ctx.token_id);
    if (!row) throw workflowNotFound();
    return mapWorkflow(row);
  }
}
