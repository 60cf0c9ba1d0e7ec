import { z } from 'zod';
import { GroupChatIdSchema, PHONE_DIGITS } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute, type RouteContract } from '../../http/define-route';
import { defineRpc, type RpcRequest } from '../../rpc/define-rpc';
import { MediaSchema } from '../../chats/message/message.schema';
import { SANDBOX_MESSAGE_CHANGE_ROUTES } from './sandbox-message-changes.contract';

/**
 * The sandbox network's control API (/v1/sandbox/*): what a real network and real people would do
 * to a sandbox phone. Served only when the phones service runs with SANDBOX_ENABLED (the default
 * for development); otherwise the requests answer 503 like any route without a service.
 */
const Digits = z.string().regex(PHONE_DIGITS, 'must be phone digits (country code + number)');
const rpc = <B extends z.ZodType, Res extends z.ZodType>(name: string, body: B, response: Res) =>
  defineRpc({ subject: `sandbox.v1.${name}`, service: 'sandbox', request: z.object({ ctx: RequestContextSchema, body }), response });
const route = (over: Omit<RouteContract, 'tag' | 'successStatus' | 'phone'>): RouteContract =>
  defineRoute({ tag: 'sandbox', successStatus: 200, phone: 'required', ...over });

export const SandboxScanBody = z.object({ number: Digits });
export const SandboxStateBody = z.object({ state: z.enum(['CONNECTED', 'DISCONNECTED', 'UNREACHABLE']) });
export const SandboxGroupBody = z.object({
  subject: z.string().min(1).max(100),
  participants: z.array(Digits).min(1).max(1024),
  admins: z.array(Digits).default([]),
  /** Whether the x-phone phone is an admin of the new group (it is always a member). */
  phone_is_admin: z.boolean().default(true),
});
export const SandboxInboundBody = z.object({
  chat_id: z.string().min(1),
  /** Group messages: who sent it (digits); individual chats: the chat's number. */
  from: Digits.optional(),
  /** true: typed on the phone itself (appears as from_me) */
  from_me: z.boolean().default(false),
  /** The sender's name as its phone gives it (push name): the sender's contact is named so. Ignored with from_me. */
  sender_name: z.string().trim().min(1).max(100).optional(),
  body: z.string().max(65_536).nullable().default(null),
  type: z.enum(['chat', 'image']).default('chat'),
  media: MediaSchema.optional(),
  /** A reply: the unique_id of the message of this chat on the phone that it quotes (422 when there is none). */
  quoted_unique_id: z.string().trim().min(1).max(100).optional(),
});
export const SandboxAckBody = z.object({
  unique_id: z.string().min(1),
  ack: z.union([z.literal(-1), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  participant: Digits.optional(),
});

/** Another member does something to a sandbox group the x-phone phone is in: each produces a group notification. */
export const SandboxGroupChangeBody = z
  .object({
    chat_id: GroupChatIdSchema,
    /** join: `number` joins by invite link; leave: `number` leaves; promote/demote: `number` is made (no longer) admin by `by`; subject: `number` renames the group. */
    action: z.enum(['join', 'leave', 'promote', 'demote', 'subject']),
    number: Digits,
    by: Digits.optional(),
    subject: z.string().min(1).max(100).optional(),
  })
  .refine((b) => b.action !== 'subject' || b.subject !== undefined, {
    path: ['subject'],
    message: 'subject is required to change the subject',
  });

const Device = z.object({ phone_id: z.string(), state: z.string(), number: z.string().nullable() });
export const SandboxScanRpc = rpc('scan', SandboxScanBody, Device);
export const SandboxStateRpc = rpc('state', SandboxStateBody, Device);
export const SandboxGroupRpc = rpc(
  'group',
  SandboxGroupBody,
  z.object({ chat_id: z.string(), subject: z.string(), participants: z.array(z.object({ id: z.string(), admin: z.boolean() })) }),
);
export const SandboxInboundRpc = rpc(
  'inbound',
  SandboxInboundBody,
  z.object({ chat_id: z.string(), unique_id: z.string(), message_id: z.string() }),
);
export const SandboxGroupChangeRpc = rpc('group-change', SandboxGroupChangeBody, SandboxGroupRpc.response);
export const SandboxAckRpc = rpc('ack', SandboxAckBody, z.object({ unique_id: z.string(), ack: z.number() }));

export const SANDBOX_ROUTES: readonly RouteContract[] = [
  route({
    operationId: 'sandboxScan',
    method: 'POST',
    path: '/sandbox/phones/scan',
    summary: "Scan the phone's QR with a number: it pairs and connects",
    rpc: SandboxScanRpc,
    body: SandboxScanBody,
    response: Device,
  }),
  route({
    operationId: 'sandboxState',
    method: 'POST',
    path: '/sandbox/phones/state',
    summary: "Connect, disconnect, or make the phone's server unreachable",
    rpc: SandboxStateRpc,
    body: SandboxStateBody,
    response: Device,
  }),
  route({
    operationId: 'sandboxGroup',
    method: 'POST',
    path: '/sandbox/groups',
    summary: 'Create a group with participants and admins, the phone a member',
    rpc: SandboxGroupRpc,
    body: SandboxGroupBody,
    response: SandboxGroupRpc.response,
  }),
  route({
    operationId: 'sandboxInbound',
    method: 'POST',
    path: '/sandbox/messages',
    summary: 'Deliver a text or image message to the phone, optionally a reply quoting one of the chat',
    rpc: SandboxInboundRpc,
    body: SandboxInboundBody,
    response: SandboxInboundRpc.response,
  }),
  route({
    operationId: 'sandboxGroupChange',
    method: 'POST',
    path: '/sandbox/groups/change',
    summary: 'Another member joins, leaves, is promoted or demoted, or renames a group the phone is in',
    rpc: SandboxGroupChangeRpc,
    body: SandboxGroupChangeBody,
    response: SandboxGroupRpc.response,
  }),
  ...SANDBOX_MESSAGE_CHANGE_ROUTES,
  route({
    operationId: 'sandboxAck',
    method: 'POST',
    path: '/sandbox/messages/ack',
    summary: 'Advance (1..4) or fail (-1) the ack of a message the phone sent',
    rpc: SandboxAckRpc,
    body: SandboxAckBody,
    response: SandboxAckRpc.response,
  }),
];

export type SandboxScanRequest = RpcRequest<typeof SandboxScanRpc>;
export type SandboxStateRequest = RpcRequest<typeof SandboxStateRpc>;
export type SandboxGroupRequest = RpcRequest<typeof SandboxGroupRpc>;
export type SandboxInboundRequest = RpcRequest<typeof SandboxInboundRpc>;
export type SandboxAckRequest = RpcRequest<typeof SandboxAckRpc>;
export type SandboxGroupChangeRequest = RpcRequest<typeof SandboxGroupChangeRpc>;
export type SandboxDevice = z.infer<typeof Device>;
