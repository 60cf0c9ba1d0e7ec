import { createHash } from 'node:crypto';
import type { RequestContext } from '@mapi/contracts';
import type { NatsRpcClient } from '@mapi/platform';
import type { RunRow, StepRow } from '../../repositories/run-repository';
import type { TriggerEvent } from '../workflow-data';

/** The RPC client's call, all an action needs of it (tests pass their own). */
export type RpcCaller = Pick<NatsRpcClient, 'call'>;

/** What an action runs with: its run, the trigger event, its metadata and the steps before it. */
export interface ActionContext {
  run: RunRow;
  event: TriggerEvent;
  action_id: string;
  metadata: Record<string, unknown>;
  /** Earlier steps of the run (a close_ticket reads the ticket a create_ticket made). */
  earlier: StepRow[];
}

/**
 * The action's idempotency key, (workflow, event, action) hashed to fit a header: the same on every
 * attempt and every executor, so the queue and the inbox answer a retried step with what the first
 * attempt made instead of sending or creating again.
 */
export function idempotencyKeyOf(c: Pick<ActionContext, 'run' | 'action_id'>): string {
  return `workflow-${createHash('sha256').update(`${c.run.workflow_id}|${c.run.event_id}|${c.action_id}`).digest('hex')}`;
}

/**
 * The context an action's RPCs carry: the run's organization, the workflow as the actor (`actor` 'workflow', token_id:
 * what the services record as raised_by, a note's performed_by…), every phone in reach, and the event's phone.
 */
export function actionCtx(run: RunRow): RequestContext {
  return {
    org_id: run.org_id,
    token_id: run.workflow_id,
    phone_scope: null,
    phone: run.phone_id ? { phone_id: run.phone_id, org_phone: null } : null,
    member: null,
    // the queue records no sender (performed_by) for a workflow's sends: it is no team member
    actor: 'workflow',
  };
}

/** A failure that no retry can mend (the action's input is wrong for what it finds). */
export class ActionError extends Error {}
