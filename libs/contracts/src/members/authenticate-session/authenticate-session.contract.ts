import { z } from 'zod';
import { MemberRoleSchema } from '../../common/request-context';
import { defineRpc } from '../../rpc/define-rpc';

/** The session behind a cookie, for the gateway: who, which organization, what they reach. */
export const AuthenticatedSession = z.object({
  session_id: z.string(),
  member_id: z.string(),
  org_id: z.string(),
  email: z.string(),
  role: MemberRoleSchema,
  /** phone_ids a member reaches; null = every phone (always null for owners and admins). */
  phone_ids: z.array(z.string()).nullable(),
  /** Lower-case label names a member is limited to; null = every label (always null for owners and admins). */
  label_ids: z.array(z.string()).nullable(),
  /** SHA-256 hex of the session's CSRF token (the gateway compares x-csrf-token's hash with it). */
  csrf_hash: z.string(),
});
export type AuthenticatedSession = z.infer<typeof AuthenticatedSession>;

/** Internal (the gateway's): the live session whose token hashes to `token_hash`, or null. */
export const AuthenticateSessionRpc = defineRpc({
  subject: 'members.v1.sessions.authenticate',
  service: 'members',
  request: z.object({ token_hash: z.string().regex(/^[0-9a-f]{64}$/) }),
  response: AuthenticatedSession.nullable(),
});
export type AuthenticateSessionRequest = z.infer<typeof AuthenticateSessionRpc.request>;
