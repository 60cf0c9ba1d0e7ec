import { z } from 'zod';
import { ChatViewSchema } from '../../chats/chat/chat-view.schema';
import { GroupChatIdSchema, PHONE_DIGITS } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute, type RouteContract } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * Group lifecycle (../shared/reference/wider-api.md; shapes from the public client's groupApi):
 * create a group, refresh its invite link, change its settings, join by invite code, leave.
 * The acting phone is x-phone, or the one the shared rule chooses (docs/services/groups.md).
 */
const Digits = z.string().min(1, 'must not be empty').regex(PHONE_DIGITS, 'must be a phone number: country code + number, digits only');
const NO_IMAGE = 'image is not supported: set the group picture on the phone';
const noImage = z
  .unknown()
  .refine((v) => v === undefined, { message: NO_IMAGE })
  .optional();
const GroupParams = z.object({ chat_id: GroupChatIdSchema });
/**
 * Text the network stores: a lone UTF-16 surrogate cannot be stored (it would come back as U+FFFD),
 * so it is replaced here, and what is stored is what was asked for.
 */
const wellFormed = (v: string) => v.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

export const CreateGroupBody = z.object({
  group_name: z
    .string()
    .trim()
    .min(1, 'group_name must not be empty')
    .max(100, 'group_name is at most 100 characters')
    .transform(wellFormed),
  participants: z.array(Digits).min(1, 'participants needs at least one phone number').max(1024),
  options: z
    .object({
      addMembersAdminsOnly: z.boolean().optional(),
      description: z.string().max(2048, 'description is at most 2048 characters').transform(wellFormed).optional(),
      image: noImage,
      infoAdminsOnly: z.boolean().optional(),
      messagesAdminsOnly: z.boolean().optional(),
      force_add_participants: z.boolean().optional(),
    })
    .optional(),
});
export const GroupSettingsBody = z
  .object({
    memberAddMode: z.boolean().optional(),
    description: z.string().max(2048, 'description is at most 2048 characters').transform(wellFormed).optional(),
    image: noImage,
    infoAdminsOnly: z.boolean().optional(),
    messagesAdminsOnly: z.boolean().optional(),
    name: z.string().trim().min(1, 'name must not be empty').max(100, 'name is at most 100 characters').transform(wellFormed).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'give at least one setting to change' });
export const AcceptInviteBody = z.object({
  invite_code: z
    .string()
    .trim()
    .min(1, 'invite_code must not be empty')
    .max(64)
    .regex(/^[0-9A-Za-z_-]+$/, 'invite_code is the code of an invite link (letters and digits)'),
});
export const InviteLinkResponse = z.object({ invite_link: z.string() });

const rpc = <B extends z.ZodType, P extends z.ZodType, R extends z.ZodType>(op: string, params: P, body: B, response: R) =>
  defineRpc({ subject: `groups.v1.${op}`, service: 'groups', request: z.object({ ctx: RequestContextSchema, params, body }), response });

export const CreateGroupRpc = rpc('create', z.object({}).optional(), CreateGroupBody, ChatViewSchema);
export const GroupInviteRpc = rpc('invite', GroupParams, z.unknown().optional(), InviteLinkResponse);
export const GroupSettingsRpc = rpc('settings', GroupParams, GroupSettingsBody, ChatViewSchema);
export const AcceptInviteRpc = rpc('accept-invite', z.object({}).optional(), AcceptInviteBody, ChatViewSchema);
/** No content: the public client types this answer as 200 with `undefined`. */
export const LeaveGroupRpc = rpc('leave', GroupParams, z.unknown().optional(), z.null());

export type CreateGroupRequest = z.infer<typeof CreateGroupRpc.request>;
export type GroupInviteRequest = z.infer<typeof GroupInviteRpc.request>;
export type GroupSettingsRequest = z.infer<typeof GroupSettingsRpc.request>;
export type AcceptInviteRequest = z.infer<typeof AcceptInviteRpc.request>;
export type LeaveGroupRequest = z.infer<typeof LeaveGroupRpc.request>;

const ACTOR = 'Without x-phone, ';
export const GROUP_LIFECYCLE_ROUTES: readonly RouteContract[] = [
  defineRoute({
    operationId: 'createGroup',
    method: 'POST',
    path: '/chats/create',
    tag: 'group',
    summary: 'Create a group',
    description: `${ACTOR}the first-created connected phone within the token scope creates it. Answers the new group as GET /chats/{chat_id} does. options.image is not supported (422).`,
    body: CreateGroupBody,
    phone: 'optional',
    rpc: CreateGroupRpc,
    successStatus: 200,
    response: ChatViewSchema,
  }),
  defineRoute({
    operationId: 'refreshInvite',
    method: 'POST',
    path: '/chats/{chat_id}/invite',
    tag: 'group',
    summary: 'Generate a new invite link for a group',
    description: `${ACTOR}the first-created connected phone within the token scope that is an admin of the group acts. The earlier link stops working.`,
    params: GroupParams,
    phone: 'optional',
    rpc: GroupInviteRpc,
    successStatus: 200,
    response: InviteLinkResponse,
  }),
  defineRoute({
    operationId: 'updateGroupSettings',
    method: 'POST',
    path: '/chats/{chat_id}/settings',
    tag: 'group',
    summary: 'Update the settings of a group',
    description: `${ACTOR}an admin phone of the group acts. Answers the group as GET /chats/{chat_id} does. image is not supported (422).`,
    params: GroupParams,
    body: GroupSettingsBody,
    phone: 'optional',
    rpc: GroupSettingsRpc,
    successStatus: 200,
    response: ChatViewSchema,
  }),
  defineRoute({
    operationId: 'acceptGroupInvite',
    method: 'POST',
    path: '/chats/accept-invite',
    tag: 'group',
    summary: 'Join a group with an invite code',
    description: `${ACTOR}the first-created connected phone within the token scope joins. Answers the group as GET /chats/{chat_id} does.`,
    body: AcceptInviteBody,
    phone: 'optional',
    rpc: AcceptInviteRpc,
    successStatus: 200,
    response: ChatViewSchema,
  }),
  defineRoute({
    operationId: 'leaveGroup',
    method: 'POST',
    path: '/chats/{chat_id}/leave',
    tag: 'group',
    summary: 'Leave a group',
    description: `${ACTOR}the first-created connected phone within the token scope that is in the group leaves. Answers 200 with no content.`,
    params: GroupParams,
    phone: 'optional',
    rpc: LeaveGroupRpc,
    successStatus: 200,
  }),
];
