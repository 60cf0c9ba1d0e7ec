import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EmailsSchema, MemberRowSchema } from '../member/member.schema';

export const UpdateMemberRoleBody = z.object({
  emails: EmailsSchema,
  role: z.enum(['admin', 'member'], { error: 'role must be admin or member' }),
});

export const UpdateMemberRoleResponse = z.array(MemberRowSchema);

export const UpdateMemberRoleRpc = defineRpc({
  subject: 'members.v1.role.update',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema, body: UpdateMemberRoleBody }),
  response: UpdateMemberRoleResponse,
});
export type UpdateMemberRoleRequest = z.infer<typeof UpdateMemberRoleRpc.request>;

/** Not in the public client (its members API has no role change): the console's "role" of a member, in the same shape. */
export const UpdateMemberRoleRoute = defineRoute({
  operationId: 'updateMemberRole',
  method: 'PATCH',
  path: '/members/role',
  tag: 'members',
  summary: "Change members' role (admin or member)",
  description:
    'Sets the role of the members named by email and answers their rows. An admin reaches every phone and label; a member ' +
    "keeps the access stored for them (PATCH /members/access). The owner's role does not change (403). An email that is not a " +
    "member of the organization is 422 and nothing changes. A member's open console sessions follow the change at their next " +
    'request. Owners and admins only (403 for a member).',
  body: UpdateMemberRoleBody,
  phone: 'none',
  role: 'admin',
  rpc: UpdateMemberRoleRpc,
  successStatus: 200,
  response: UpdateMemberRoleResponse,
});
