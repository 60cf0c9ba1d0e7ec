import { ServiceError, type WorkflowDefinition } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import type { RunRow, StepRow } from '../repositories/run-repository';
import { ActionError, type ActionContext, type RpcCaller } from './actions/action-context';
import { runAiAgent } from './actions/ai-agent.action';
import { StepSkipped } from './actions/step-skipped';
import { chatFacts, needsChat } from './chat-facts';
import { changeChatLabels } from './actions/chat-labels.action';
import { MORE_ACTIONS, type ActionServices } from './actions/more-actions';
import { sendMessage } from './actions/send-message.action';
import { closeTicket, createTicket } from './actions/tickets.action';
import { actionById, decide } from './graph';
import type { ClaimedStep, StepOutcome } from './run-store';
import { workflowData, type TriggerEvent } from './workflow-data';

/** Retry delays of a step whose action failed for a passing reason: 1 s, 5 s, 30 s, 2 min, then 10 min. */
const RETRY_MS = [1_000, 5_000, 30_000, 120_000, 600_000];

/** A failure worth retrying: the service unavailable or slow, or anything that is not a ServiceError under 500. */
function passing(err: unknown): boolean {
  if (err instanceof ActionError) return false;
  if (err instanceof ServiceError) return err.status >= 500 || err.status === 429;
  return true;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Runs one claimed step of a run and says how it ended. Flow actions (validate_action, split_path,
 * delay) are decided here from the run's own copy of the definition and event; the others call the
 * service that does the work, with the step's idempotency key. A failure a retry cannot mend (a 4xx,
 * no chat) fails the step; a passing one (5xx, timeout) retries, up to `maxAttempts`.
 */
export async function runStep(
  rpc: RpcCaller,
  step: ClaimedStep,
  run: RunRow,
  earlier: StepRow[],
  maxAttempts: number,
  services: ActionServices = {},
): Promise<StepOutcome> {
  const definition = run.definition as unknown as WorkflowDefinition;
  const action = actionById(definition, step.action_id);
  if (!action) return { status: 'failed', error: `the run's definition has no action ${step.action_id}` };
  const event = run.event as unknown as TriggerEvent;
  const nextOf = (id: string | null, delayMs = 0) => {
    const a = id ? actionById(definition, id) : undefined;
    return a ? { action_id: a.id, action_type: a.action_metadata.type, delay_ms: delayMs } : null;
  };
  try {
    let data = workflowData(definition.trigger, event);
    // conditions on the chat's labels, properties, … of a message (ticket, reaction) read the chat as it is now
    if (needsChat(definition, action)) data = { ...data, chat: { ...(await chatFacts(rpc, run)), ...data.chat } };
    const decision = decide(definition, action, data);
    switch (decision.kind) {
      case 'condition':
        return { status: 'completed', result: { passed: decision.passed }, next: nextOf(decision.next) };
      case 'split':
        return {
          status: 'completed',
          result: { path_id: decision.path_id, condition_action_id: decision.condition_action_id },
          next: nextOf(decision.next),
        };
      case 'delay':
        return { status: 'completed', result: { delay_ms: decision.delay_ms }, next: nextOf(decision.next, decision.delay_ms) };
    }
    const context: ActionContext = {
      run,
      event,
      action_id: action.id,
      metadata: (action.action_metadata.metadata ?? {}) as Record<string, unknown>,
      earlier,
    };
    const result = await perform(rpc, action.action_metadata.type, context, services);
    return { status: 'completed', result: result as Prisma.InputJsonValue, next: nextOf(decision.next) };
  } catch (err) {
    if (err instanceof StepSkipped) return { status: 'skipped', reason: err.message, result: err.result as Prisma.InputJsonValue };
    if (passing(err) && step.attempts < maxAttempts)
      return { status: 'retry', error: describe(err), retry_in_ms: RETRY_MS[Math.min(step.attempts - 1, RETRY_MS.length - 1)] };
    return {
      status: 'failed',
      error: describe(err),
      result: err instanceof ServiceError ? (err.toEnvelope() as unknown as Prisma.InputJsonValue) : undefined,
    };
  }
}

function perform(rpc: RpcCaller, type: string, c: ActionContext, services: ActionServices): Promise<Record<string, unknown>> {
  switch (type) {
    case 'send_message_to_chat':
      return sendMessage(rpc, c);
    case 'add_chat_label':
      return changeChatLabels(rpc, c, 'add');
    case 'remove_chat_label':
      return changeChatLabels(rpc, c, 'remove');
    case 'create_ticket':
      return createTicket(rpc, c);
    case 'close_ticket':
      return closeTicket(rpc, c);
    case 'ai_prompt':
      return runAiAgent(rpc, c, services.agent);
    default:
      if (MORE_ACTIONS[type]) return MORE_ACTIONS[type](rpc, c, services);
      // definitions are checked on create and update (definitionIssues): only a stored row changed by hand gets here
      return Promise.reject(new ActionError(`action type ${type} is not supported here yet`));
  }
}
