import {
  GetChatRpc,
  ListLabelsRpc,
  isConditionGroup,
  type ConditionGroup,
  type ConditionLeaf,
  type WorkflowActionInput,
  type WorkflowDefinition,
} from '@mapi/contracts';
import type { RunRow } from '../repositories/run-repository';
import { actionById } from './graph';
import { actionCtx, type RpcCaller } from './actions/action-context';

/** The chat fields every event of a chat carries (workflowData); others need the chat itself. */
const CARRIED = new Set(['chat_id', 'chat_type', 'org_phone']);

function variables(group: ConditionGroup | undefined): string[] {
  if (!group?.conditions) return [];
  return group.conditions.flatMap((c: ConditionLeaf | ConditionGroup) => (isConditionGroup(c) ? variables(c) : [c.variable_name]));
}

/**
 * Whether the conditions decided at this action read a chat field the event does not carry (its
 * labels, custom properties, assignee, …) on a trigger whose event is not the chat itself.
 */
export function needsChat(def: WorkflowDefinition, action: WorkflowActionInput): boolean {
  if (def.trigger.startsWith('chat.')) return false;
  const groups: (ConditionGroup | undefined)[] = [];
  if (action.action_metadata.type === 'validate_action') groups.push(action.action_metadata.metadata as ConditionGroup);
  if (action.action_metadata.type === 'split_path') {
    const paths = (action.action_metadata.metadata as { paths?: { condition_action_id: string }[] }).paths ?? [];
    for (const p of paths) groups.push(actionById(def, p.condition_action_id)?.action_metadata.metadata as ConditionGroup | undefined);
  }
  return groups.flatMap(variables).some((v) => v.startsWith('chat.') && !CARRIED.has(v.split('.')[1]));
}

/**
 * The run's chat as the chats service shows it now (label_ids, custom_properties, assigned_to, …),
 * with `labels`: its label names (the catalogue's), so `chat.labels IS_ANY_OF ["vip"]` reads as written.
 */
export async function chatFacts(rpc: RpcCaller, run: RunRow): Promise<Record<string, unknown>> {
  if (!run.chat_id) return {};
  const ctx = actionCtx(run);
  const chat = await rpc.call(GetChatRpc, { ctx, params: { chat_id: run.chat_id } });
  const catalogue = await rpc.call(ListLabelsRpc, { ctx, query: { offset: 0, limit: 2000, type: 'chat' } });
  const names = new Map(catalogue.labels.map((l) => [l.label_id, l.name]));
  const labels = Object.entries(chat.label_ids)
    .filter(([, on]) => on)
    .map(([id]) => names.get(id) ?? id);
  return { ...chat, labels };
}
