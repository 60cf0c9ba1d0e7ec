import type { AiAgent } from '../../agent/ai-agent';
import type { ActionContext, RpcCaller } from './action-context';
import { assignChat, assignTicket } from './assign.action';
import { flagMessage } from './flag.action';
import { forwardMessage } from './forward.action';
import { notifyHttp, type OutboundHttp } from './notify-http.action';
import { changeTicketLabels } from './ticket-labels.action';

/** What actions need beyond RPCs, made once per process (bootstrap); absent in a process that did not wire it. */
export interface ActionServices {
  /** notify_http: the outgoing HTTP client. */
  http?: OutboundHttp;
  /** ai_prompt: without it the step fails saying the agent is off. */
  agent?: AiAgent;
}

type Run = (rpc: RpcCaller, c: ActionContext, services: ActionServices) => Promise<Record<string, unknown>>;

/** The action types of issue 19's second slice, by type (step-runner's perform falls through to these). */
export const MORE_ACTIONS: Record<string, Run> = {
  assign_ticket: (rpc, c) => assignTicket(rpc, c),
  assign_chat: (rpc, c) => assignChat(rpc, c),
  add_ticket_label: (rpc, c) => changeTicketLabels(rpc, c, 'add'),
  remove_ticket_label: (rpc, c) => changeTicketLabels(rpc, c, 'remove'),
  flag_message: (rpc, c) => flagMessage(rpc, c, true),
  unflag_message: (rpc, c) => flagMessage(rpc, c, false),
  forward_message: (rpc, c) => forwardMessage(rpc, c),
  notify_http: (_rpc, c, services) => notifyHttp(services.http, c),
};
