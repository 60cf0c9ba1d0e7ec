import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';

export const DeleteMemberParams = z.object({
  id: z.string({ error: 'id must be a string' }).trim().min(1, 'id must not be empty').max(254, 'id is at most 254 characters'),
});

export const DeleteMemberRpc = defineRpc({
  subject: 'members.v1.delete',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema, params: DeleteMemberParams }),
  response: z.null(),
});
export type DeleteMemberRequest = z.infer<typeof DeleteMemberRpc.request>;

export const DeleteMemberRoute = defineRoute({
  operationId: 'deleteMember',
  method: 'DELETE',
  path: '/members/{id}',
  tag: 'members',
  summary: 'Remove a member from the organization',
  description:
    "`id` is the member's user_id or email. The member's sessions and invitation links stop working at once. The owner cannot be " +
    "removed (403). An unknown id, or another organization's, is 404. Owners and admins only (403 for a member).",
  params: DeleteMemberParams,
  phone: 'none',
  role: 'admin',
  rpc: DeleteMemberRpc,
  successStatus: 204,
});
