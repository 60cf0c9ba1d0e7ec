import type { RouteContract } from '../http/define-route';
import { GetAiAgentRoute, UpdateAiAgentRoute } from './agent/agent-switch.contract';
import { CreateWorkflowRoute } from './create-workflow/create-workflow.contract';
import { DeleteWorkflowRoute } from './delete-workflow/delete-workflow.contract';
import { DryRunWorkflowRoute } from './dry-run-workflow/dry-run-workflow.contract';
import { GetRunRoute } from './get-run/get-run.contract';
import { GetWorkflowRoute } from './get-workflow/get-workflow.contract';
import { ListRunsRoute } from './list-runs/list-runs.contract';
import { ListWorkflowsRoute } from './list-workflows/list-workflows.contract';
import { UpdateWorkflowRoute } from './update-workflow/update-workflow.contract';

export * from './workflow/conditions.schema';
export * from './workflow/action-metadata.schema';
export * from './workflow/triggers';
export * from './workflow/definition';
export * from './workflow/workflow.schema';
export * from './create-workflow/create-workflow.contract';
export * from './list-workflows/list-workflows.contract';
export * from './get-workflow/get-workflow.contract';
export * from './update-workflow/update-workflow.contract';
export * from './delete-workflow/delete-workflow.contract';
export * from './dry-run-workflow/dry-run-workflow.contract';
export * from './list-runs/list-runs.contract';
export * from './get-run/get-run.contract';
export * from './workflow/ai-agent.schema';
export * from './agent/agent-switch.contract';
export * from './import-workflows/import-workflows.contract';

/** The automation service's public routes: workflows and their run log (issue 19). */
export const AUTOMATION_ROUTES: readonly RouteContract[] = [
  CreateWorkflowRoute,
  ListWorkflowsRoute,
  GetRunRoute,
  GetWorkflowRoute,
  UpdateWorkflowRoute,
  DeleteWorkflowRoute,
  DryRunWorkflowRoute,
  ListRunsRoute,
  GetAiAgentRoute,
  UpdateAiAgentRoute,
];
