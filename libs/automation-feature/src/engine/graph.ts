import { SplitPathMetadata, durationMs, type ConditionGroup, type WorkflowActionInput, type WorkflowDefinition } from '@mapi/contracts';
import { evaluateGroup } from './conditions';
import type { WorkflowData } from './workflow-data';

/** What the walker decides at one action. */
export type FlowDecision =
  /** validate_action: the condition held (continue with `next`) or did not (the path ends). */
  | { kind: 'condition'; passed: boolean; next: string | null }
  /** split_path: the first path whose condition holds (`path_id`), continuing after that condition; none: the path ends. */
  | { kind: 'split'; path_id: string | null; condition_action_id: string | null; next: string | null }
  /** delay: the next action is due `delay_ms` later. */
  | { kind: 'delay'; delay_ms: number; next: string | null }
  /** Any other action: it runs, then `next`. */
  | { kind: 'action'; next: string | null };

export function actionById(def: WorkflowDefinition, id: string): WorkflowActionInput | undefined {
  return def.actions.find((a) => a.id === id);
}

const nextOf = (a: WorkflowActionInput | undefined) => (a?.next ? a.next : null);

/**
 * What happens at an action of a (validated) definition for the event's objects: pure, so a run and a
 * dry run decide alike. Conditions read the event as it was when the run started.
 */
export function decide(def: WorkflowDefinition, action: WorkflowActionInput, data: WorkflowData): FlowDecision {
  const meta = action.action_metadata.metadata;
  switch (action.action_metadata.type) {
    case 'validate_action': {
      const passed = evaluateGroup(meta as ConditionGroup, data);
      return { kind: 'condition', passed, next: passed ? nextOf(action) : null };
    }
    case 'split_path': {
      for (const path of SplitPathMetadata.parse(meta).paths) {
        const condition = actionById(def, path.condition_action_id);
        if (condition && evaluateGroup(condition.action_metadata.metadata as ConditionGroup, data)) {
          return { kind: 'split', path_id: path.id, condition_action_id: condition.id, next: nextOf(condition) };
        }
      }
      return { kind: 'split', path_id: null, condition_action_id: null, next: null };
    }
    case 'delay':
      return { kind: 'delay', delay_ms: durationMs(String((meta as { delay: string }).delay)) ?? 0, next: nextOf(action) };
    default:
      return { kind: 'action', next: nextOf(action) };
  }
}

export interface WalkEntry {
  action_id: string;
  type: string;
  outcome: 'would_run' | 'would_wait' | 'condition_passed' | 'condition_failed' | 'path_taken' | 'path_not_taken';
}

/**
 * The whole path a run would take for the event (the dry run): every action reached in order, with
 * what would happen there; a split lists the path taken and those not taken. The graph has no cycle
 * (definitionIssues), so the walk ends; it is also bounded by the number of actions.
 */
export function walk(def: WorkflowDefinition, data: WorkflowData): WalkEntry[] {
  const out: WalkEntry[] = [];
  let id = def.trigger_metadata.first_action_id;
  for (let guard = 0; id && guard <= def.actions.length; guard++) {
    const action = actionById(def, id);
    if (!action) break;
    const type = action.action_metadata.type;
    const d = decide(def, action, data);
    if (d.kind === 'condition') out.push({ action_id: id, type, outcome: d.passed ? 'condition_passed' : 'condition_failed' });
    else if (d.kind === 'split') {
      out.push({ action_id: id, type, outcome: d.path_id ? 'path_taken' : 'path_not_taken' });
      for (const p of SplitPathMetadata.parse(action.action_metadata.metadata).paths) {
        const target = actionById(def, p.condition_action_id);
        out.push({
          action_id: p.condition_action_id,
          type: target?.action_metadata.type ?? 'validate_action',
          outcome: p.id === d.path_id ? 'path_taken' : 'path_not_taken',
        });
      }
    } else out.push({ action_id: id, type, outcome: d.kind === 'delay' ? 'would_wait' : 'would_run' });
    id = d.next;
  }
  return out;
}
