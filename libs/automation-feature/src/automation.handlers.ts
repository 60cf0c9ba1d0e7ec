import { ImportWorkflowsRpc } from '@mapi/contracts';
import { ImportWorkflows } from './usecases/import-workflows/import-workflows.usecase';
import {
  CreateWorkflowRpc,
  DeleteWorkflowRpc,
  DryRunWorkflowRpc,
  GetAiAgentRpc,
  GetRunRpc,
  GetWorkflowRpc,
  ListRunsRpc,
  ListWorkflowsRpc,
  UpdateAiAgentRpc,
  UpdateWorkflowRpc,
} from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { rpcHandler } from '@mapi/platform';
import type { AiAgent } from './agent/ai-agent';
import { RunRepository } from './repositories/run-repository';
import { WorkflowRepository } from './repositories/workflow-repository';
import { CreateWorkflow } from './usecases/create-workflow/create-workflow.usecase';
import { DeleteWorkflow } from './usecases/delete-workflow/delete-workflow.usecase';
import { DryRunWorkflow } from './usecases/dry-run-workflow/dry-run-workflow.usecase';
import { GetAiAgent } from './usecases/get-ai-agent/get-ai-agent.usecase';
import { GetRun } from './usecases/get-run/get-run.usecase';
import { GetWorkflow } from './usecases/get-workflow/get-workflow.usecase';
import { ListRuns } from './usecases/list-runs/list-runs.usecase';
import { ListWorkflows } from './usecases/list-workflows/list-workflows.usecase';
import { UpdateAiAgent } from './usecases/update-ai-agent/update-ai-agent.usecase';
import { UpdateWorkflow } from './usecases/update-workflow/update-workflow.usecase';

export interface AutomationDeps {
  prisma: PrismaClient;
  agent: AiAgent;
}

const serve = rpcHandler<AutomationDeps>();

/** What the automation service answers: one line per operation, its contract and its use case. */
export const AUTOMATION_HANDLERS = [
  // the importer's writes (docs/services/imports.md)
  serve(ImportWorkflowsRpc, (d) => new ImportWorkflows(d.prisma)),
  serve(CreateWorkflowRpc, (d) => new CreateWorkflow(new WorkflowRepository(d.prisma))),
  serve(ListWorkflowsRpc, (d) => new ListWorkflows(new WorkflowRepository(d.prisma))),
  serve(GetWorkflowRpc, (d) => new GetWorkflow(new WorkflowRepository(d.prisma))),
  serve(UpdateWorkflowRpc, (d) => new UpdateWorkflow(new WorkflowRepository(d.prisma))),
  serve(DeleteWorkflowRpc, (d) => new DeleteWorkflow(new WorkflowRepository(d.prisma))),
  serve(DryRunWorkflowRpc, (d) => new DryRunWorkflow(new WorkflowRepository(d.prisma))),
  serve(ListRunsRpc, (d) => new ListRuns(new WorkflowRepository(d.prisma), new RunRepository(d.prisma))),
  serve(GetRunRpc, (d) => new GetRun(new RunRepository(d.prisma))),
  serve(GetAiAgentRpc, (d) => new GetAiAgent(d.agent)),
  serve(UpdateAiAgentRpc, (d) => new UpdateAiAgent(d.agent)),
];
