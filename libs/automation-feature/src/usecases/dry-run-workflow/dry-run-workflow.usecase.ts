import type { DryRunWorkflowRequest, DryRunWorkflowResponse } from '@mapi/contracts';
import { refusalOf } from '../../engine/admission';
import { walk } from '../../engine/graph';
import { workflowData, type TriggerEvent } from '../../engine/workflow-data';
import { mapWorkflow } from '../../map-workflow';
import { workflowNotFound } from '../../not-found';
import type { WorkflowRepository } from '../../repositories/workflow-repository';

/** POST /workflows/{workflow_id}/dry-run: the path a run would take for the sample event; nothing runs. */
export class DryRunWorkflow {
  constructor(private readonly workflows: WorkflowRepository) {}

  async execute({ ctx, params, body }: DryRunWorkflowRequest): Promise<DryRunWorkflowResponse> {
    const row = await this.workflows.find(ctx.org_id, params.workflow_id);
    if (!row) throw workflowNotFound();
    const workflow = mapWorkflow(row);
    const event: TriggerEvent = {
      event_type: workflow.trigger,
      phone_id: body.event.phone_id ?? null,
      created_at: body.event.created_at ?? new Date().toISOString(),
      data: body.event.data,
      previous_attributes: body.event.previous_attributes ?? null,
    };
    const refusal = refusalOf(workflow, event);
    if (refusal) return { triggered: false, reason: refusal, actions: [] };
    const data = workflowData(workflow.trigger, event);
    const chat = body.event.chat ? { ...body.event.chat, ...(data.chat ?? {}) } : data.chat;
    return { triggered: true, reason: null, actions: walk(workflow, { ...data, chat: chat ?? null }) };
  }
}
