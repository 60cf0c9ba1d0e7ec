import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MemberRowSchema } from '../member/member.schema';

export const ListMembersResponse = z.array(MemberRowSchema);

export const ListMembersRpc = defineRpc({
  subject: 'members.v1.list',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema }),
  response: ListMembersResponse,
});
export type ListMembersRequest = z.infer<typeof ListMembersRpc.request>;

export const ListMembersRoute = defineRoute({
  operationId: 'listMembers',
  method: 'GET',
  path: '/members',
  tag: 'members',
  summary: 'List the members of the organization',
  description:
    'Every member, invited or active, oldest first, as `tbl_org_members` rows. Not in the public client (it has no listing): ' +
    'added for the console. Any member may list; only owners and admins may change members.',
  phone: 'none',
  rpc: ListMembersRpc,
  successStatus: 200,
  response: ListMembersResponse,
});
