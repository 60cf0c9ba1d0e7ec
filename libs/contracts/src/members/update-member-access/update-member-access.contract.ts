import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EmailsSchema, LabelNamesSchema, MemberRowSchema, OrgPhonesSchema } from '../member/member.schema';

export const UpdateMemberAccessBody = z.object({
  emails: EmailsSchema,
  labels: LabelNamesSchema.nullable(),
  orgPhones: OrgPhonesSchema.nullable(),
});

export const UpdateMemberAccessResponse = z.array(MemberRowSchema);

export const UpdateMemberAccessRpc = defineRpc({
  subject: 'members.v1.access.update',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema, body: UpdateMemberAccessBody }),
  response: UpdateMemberAccessResponse,
});
export type UpdateMemberAccessRequest = z.infer<typeof UpdateMemberAccessRpc.request>;

export const UpdateMemberAccessRoute = defineRoute({
  operationId: 'updateMemberAccess',
  method: 'PATCH',
  path: '/members/access',
  tag: 'members',
  summary: "Change members' access to phones and labels",
  description:
    'Sets org_phones and label_ids (null = all) of the members named by email; owners and admins reach everything and are returned ' +
    'unchanged. An email that is not a member of the organization, or a phone it does not have, is 422 and nothing changes. A ' +
    "member's open console sessions follow the change at their next request. Owners and admins only (403 for a member).",
  body: UpdateMemberAccessBody,
  phone: 'none',
  role: 'admin',
  rpc: UpdateMemberAccessRpc,
  successStatus: 200,
  response: UpdateMemberAccessResponse,
});
