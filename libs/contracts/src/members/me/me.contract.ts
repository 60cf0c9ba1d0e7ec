import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MemberRowSchema } from '../member/member.schema';

export const MeResponse = z.object({
  member: MemberRowSchema,
  org_id: z.string(),
  /** owner | admin | member: what the console may show (the row's role is the client's admin | member). */
  role: z.enum(['owner', 'admin', 'member']),
  /** phone_ids the member reaches; null = every phone. */
  phone_ids: z.array(z.string()).nullable(),
  session: z.object({ created_at: z.string(), expires_at: z.string() }),
});

export const MeRpc = defineRpc({
  subject: 'members.v1.auth.me',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema }),
  response: MeResponse,
});
export type MeRequest = z.infer<typeof MeRpc.request>;

export const MeRoute = defineRoute({
  operationId: 'getCurrentMember',
  method: 'GET',
  path: '/auth/me',
  tag: 'auth',
  summary: 'The signed-in member and their session',
  description: "The console session's member, role and reach. A bearer token is 401 here.",
  phone: 'none',
  auth: 'session',
  rpc: MeRpc,
  successStatus: 200,
  response: MeResponse,
});
