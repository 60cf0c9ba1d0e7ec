import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EmailsSchema, LabelNamesSchema, MemberRowSchema, OrgPhonesSchema } from '../member/member.schema';

export const InviteMembersBody = z.object({
  emails: EmailsSchema,
  role: z.enum(['admin', 'member'], { error: "role must be 'admin' or 'member'" }).optional(),
  labels: LabelNamesSchema.nullable().optional(),
  orgPhones: OrgPhonesSchema.nullable().optional(),
});

/** How an invitation reaches its invitee: by mail, or (no SMTP server configured) as a link for the inviter to pass on. */
export const InvitationSchema = z.object({
  email: z.string(),
  expires_at: z.string(),
  delivery: z.enum(['email', 'link']),
  /** The accept link, only when it was not mailed (delivery `link`). */
  invite_url: z.string().nullable(),
});

export const InviteMembersResponse = z.object({
  addedMembers: z.array(MemberRowSchema),
  errors: z.array(z.object({ email: z.string().nullable(), error: z.object({ message: z.string() }) })),
  /** Beside the client's fields: one per invitation sent. */
  invitations: z.array(InvitationSchema),
});
export type InviteMembersResult = z.infer<typeof InviteMembersResponse>;

export const InviteMembersRpc = defineRpc({
  subject: 'members.v1.invite',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema, body: InviteMembersBody }),
  response: InviteMembersResponse,
});
export type InviteMembersRequest = z.infer<typeof InviteMembersRpc.request>;

export const InviteMembersRoute = defineRoute({
  operationId: 'inviteMembers',
  method: 'POST',
  path: '/members/invite',
  tag: 'members',
  summary: 'Invite members by email',
  description:
    'Each address gets a single-use invitation link that expires (INVITE_TTL_HOURS). It is mailed when the members service has ' +
    'an SMTP server; otherwise `invitations[].invite_url` carries it for the inviter to pass on. An address already active in the ' +
    'organization is listed in `errors`; one invited before gets a new link (the old one stops working). For role member, labels ' +
    'and orgPhones (numbers without @c.us, or phone_ids) limit access, null or absent = all; for admins they are ignored. A phone ' +
    'the organization does not have is 422. Owners and admins only (403 for a member).',
  body: InviteMembersBody,
  phone: 'none',
  role: 'admin',
  rpc: InviteMembersRpc,
  successStatus: 200,
  response: InviteMembersResponse,
});
