import { z } from 'zod';
import { PHONE_DIGITS } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute, type RouteContract } from '../../http/define-route';
import { defineRpc, type RpcRequest } from '../../rpc/define-rpc';

/**
 * The sandbox network's control routes for what other people do to a message in a sandbox phone's
 * chat: its sender edits or deletes it for everyone, someone reacts to it. The phone hears of it as
 * a real network would tell it (its messages.update), so it reaches GET messages and the events.
 * The phone's own edits, deletions and reactions go through the public message actions.
 */
const Digits = z.string().regex(PHONE_DIGITS, 'must be phone digits (country code + number)');
const UniqueId = z.string().min(1, 'unique_id must not be empty').max(128, 'unique_id is too long');
const rpc = <B extends z.ZodType, Res extends z.ZodType>(name: string, body: B, response: Res) =>
  defineRpc({ subject: `sandbox.v1.${name}`, service: 'sandbox', request: z.object({ ctx: RequestContextSchema, body }), response });

export const SandboxEditBody = z.object({
  unique_id: UniqueId,
  body: z.string().min(1, 'body must not be empty').max(65_536, 'body is too long'),
});
export const SandboxDeleteBody = z.object({ unique_id: UniqueId });
export const SandboxReactBody = z.object({
  unique_id: UniqueId,
  /** Who reacts (digits); in an individual chat, the chat's person when omitted. */
  from: Digits.optional(),
  /** One emoji; '' takes the reaction back. */
  reaction: z.string().max(32, 'reaction must be one emoji (or empty to take it back)'),
});

const Changed = z.object({ unique_id: z.string(), message_id: z.string() });
export const SandboxEditRpc = rpc('message-edit', SandboxEditBody, Changed);
export const SandboxDeleteRpc = rpc('message-delete', SandboxDeleteBody, Changed);
export const SandboxReactRpc = rpc(
  'message-react',
  SandboxReactBody,
  Changed.extend({ reaction_id: z.string(), sender_phone: z.string() }),
);

const route = (over: Omit<RouteContract, 'tag' | 'successStatus' | 'phone' | 'method'>): RouteContract =>
  defineRoute({ tag: 'sandbox', successStatus: 200, phone: 'required', method: 'POST', ...over });

export const SANDBOX_MESSAGE_CHANGE_ROUTES: readonly RouteContract[] = [
  route({
    operationId: 'sandboxEditMessage',
    path: '/sandbox/messages/edit',
    summary: 'Its sender edits a message the phone received',
    rpc: SandboxEditRpc,
    body: SandboxEditBody,
    response: SandboxEditRpc.response,
  }),
  route({
    operationId: 'sandboxDeleteMessage',
    path: '/sandbox/messages/delete',
    summary: 'Its sender deletes a message the phone received, for everyone',
    rpc: SandboxDeleteRpc,
    body: SandboxDeleteBody,
    response: SandboxDeleteRpc.response,
  }),
  route({
    operationId: 'sandboxReactMessage',
    path: '/sandbox/messages/react',
    summary: "Another person reacts to a message of the phone's chat",
    rpc: SandboxReactRpc,
    body: SandboxReactBody,
    response: SandboxReactRpc.response,
  }),
];

export type SandboxEditRequest = RpcRequest<typeof SandboxEditRpc>;
export type SandboxDeleteRequest = RpcRequest<typeof SandboxDeleteRpc>;
export type SandboxReactRequest = RpcRequest<typeof SandboxReactRpc>;
