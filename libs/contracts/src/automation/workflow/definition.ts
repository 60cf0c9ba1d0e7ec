import type { z } from 'zod';
import { ACTION_METADATA, FLOW_ACTIONS, SplitPathMetadata, UNSUPPORTED_ACTIONS, type RunnableActionType } from './action-metadata.schema';
import { ConditionLeafSchema, MAX_CONDITION_DEPTH, type ConditionGroup, type ConditionLeaf } from './conditions.schema';
import { UNSUPPORTED_TRIGGERS, WORKFLOW_TRIGGERS } from './triggers';

/** A definition as stored: the `WorkflowType` fields that define behaviour. */
export interface WorkflowDefinition {
  trigger: string;
  trigger_metadata: { org_phones?: string[]; allow_internal_messages?: boolean; first_action_id: string | null };
  actions: WorkflowActionInput[];
}
export interface WorkflowActionInput {
  id: string;
  action_metadata: { type: string; metadata?: unknown };
  next?: string | null;
}

/** A problem with a definition: its path from the body's root and what is wrong. */
export interface DefinitionIssue {
  path: (string | number)[];
  message: string;
}

const NOT_HERE = 'is not supported here yet';

/**
 * What is wrong with a definition, beyond its JSON shape: the trigger is one this service runs, every
 * action's metadata reads as its type says (types not run here are refused, never skipped), ids are
 * unique, first_action_id and every `next` / split path target exist, a split's targets are
 * validate_action steps, and no path leads back to an action already on it (no cycle). Empty: fine.
 */
export function definitionIssues(def: WorkflowDefinition): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  if ((UNSUPPORTED_TRIGGERS as readonly string[]).includes(def.trigger))
    issues.push({ path: ['trigger'], message: `trigger ${def.trigger} ${NOT_HERE}` });
  else if (!(WORKFLOW_TRIGGERS as string[]).includes(def.trigger))
    issues.push({ path: ['trigger'], message: `trigger must be one of ${WORKFLOW_TRIGGERS.join(', ')}` });
  const byId = new Map<string, WorkflowActionInput>();
  def.actions.forEach((a, i) => {
    if (byId.has(a.id)) issues.push({ path: ['actions', i, 'id'], message: `action id ${a.id} is used twice` });
    else byId.set(a.id, a);
    issues.push(...metadataIssues(a, ['actions', i, 'action_metadata']));
  });
  const first = def.trigger_metadata.first_action_id;
  if (first !== null && !byId.has(first))
    issues.push({ path: ['trigger_metadata', 'first_action_id'], message: `no action has id ${first}` });
  if (first === null && def.actions.length)
    issues.push({ path: ['trigger_metadata', 'first_action_id'], message: 'first_action_id must name the first action' });
  def.actions.forEach((a, i) => {
    if (a.action_metadata.type === 'split_path') {
      const parsed = SplitPathMetadata.safeParse(a.action_metadata.metadata);
      if (!parsed.success) return;
      parsed.data.paths.forEach((p, j) => {
        const target = byId.get(p.condition_action_id);
        const path = ['actions', i, 'action_metadata', 'metadata', 'paths', j, 'condition_action_id'];
        if (!target) issues.push({ path, message: `no action has id ${p.condition_action_id}` });
        else if (target.action_metadata.type !== 'validate_action')
          issues.push({
            path,
            message: `a split path leads to a validate_action; ${p.condition_action_id} is ${target.action_metadata.type}`,
          });
      });
    } else if (a.next !== undefined && a.next !== null && a.next !== '' && !byId.has(a.next)) {
      issues.push({ path: ['actions', i, 'next'], message: `no action has id ${a.next}` });
    }
  });
  if (!issues.length) issues.push(...cycleIssues(def, byId));
  return issues;
}

/** The ids an action leads to: its `next`, or a split's paths. */
export function successors(action: WorkflowActionInput): string[] {
  if (action.action_metadata.type === 'split_path') {
    const parsed = SplitPathMetadata.safeParse(action.action_metadata.metadata);
    return parsed.success ? parsed.data.paths.map((p) => p.condition_action_id) : [];
  }
  return action.next ? [action.next] : [];
}

function cycleIssues(def: WorkflowDefinition, byId: Map<string, WorkflowActionInput>): DefinitionIssue[] {
  const state = new Map<string, 'open' | 'done'>();
  const index = new Map(def.actions.map((a, i) => [a.id, i]));
  let found: DefinitionIssue | null = null;
  const visit = (id: string) => {
    if (found) return;
    state.set(id, 'open');
    const action = byId.get(id);
    for (const next of action ? successors(action) : []) {
      if (state.get(next) === 'open') {
        found = {
          path: ['actions', index.get(id) ?? 0, 'next'],
          message: `action ${id} leads back to ${next}: the graph must not have a cycle`,
        };
        return;
      }
      if (!state.has(next)) visit(next);
    }
    state.set(id, 'done');
  };
  for (const a of def.actions) if (!state.has(a.id)) visit(a.id);
  return found ? [found] : [];
}

function metadataIssues(a: WorkflowActionInput, path: (string | number)[]): DefinitionIssue[] {
  const type = a.action_metadata.type;
  if ((UNSUPPORTED_ACTIONS as readonly string[]).includes(type))
    return [{ path: [...path, 'type'], message: `action type ${type} ${NOT_HERE}` }];
  if (type === 'validate_action') return conditionIssues(a.action_metadata.metadata, [...path, 'metadata'], 1);
  if (type === 'split_path') return zodIssues(SplitPathMetadata, a.action_metadata.metadata, [...path, 'metadata']);
  if (!(type in ACTION_METADATA)) {
    return [
      { path: [...path, 'type'], message: `action type must be one of ${[...Object.keys(ACTION_METADATA), ...FLOW_ACTIONS].join(', ')}` },
    ];
  }
  return zodIssues(ACTION_METADATA[type as RunnableActionType], a.action_metadata.metadata, [...path, 'metadata']);
}

/** Issues of a condition group (`validate_action` metadata), leaves checked one by one so each names its own field. */
export function conditionIssues(group: unknown, path: (string | number)[], depth: number): DefinitionIssue[] {
  if (depth > MAX_CONDITION_DEPTH) return [{ path, message: `condition groups nest at most ${MAX_CONDITION_DEPTH} deep` }];
  if (!group || typeof group !== 'object' || Array.isArray(group))
    return [{ path, message: 'must be a condition group {operator, conditions}' }];
  const g = group as Partial<ConditionGroup>;
  const issues: DefinitionIssue[] = [];
  if (g.operator !== 'AND' && g.operator !== 'OR') issues.push({ path: [...path, 'operator'], message: 'operator must be AND or OR' });
  if (!Array.isArray(g.conditions)) return [...issues, { path: [...path, 'conditions'], message: 'conditions must be an array' }];
  if (g.conditions.length > 100) return [...issues, { path: [...path, 'conditions'], message: 'at most 100 conditions in a group' }];
  g.conditions.forEach((c, i) => {
    const at = [...path, 'conditions', i];
    if (c && typeof c === 'object' && 'operator' in c) issues.push(...conditionIssues(c, at, depth + 1));
    else issues.push(...zodIssues(ConditionLeafSchema, c, at));
  });
  return issues;
}

function zodIssues(schema: z.ZodType, value: unknown, path: (string | number)[]): DefinitionIssue[] {
  const parsed = schema.safeParse(value ?? {});
  return parsed.success
    ? []
    : parsed.error.issues.map((i) => ({
        path: [...path, ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))],
        message: i.message,
      }));
}

export type { ConditionLeaf, ConditionGroup };
