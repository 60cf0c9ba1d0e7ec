import { z } from 'zod';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { IssuedSession, ConsoleSessionAnswer } from '../sign-in/sign-in.contract';

/** At least 10 characters (NIST 800-63B's floor is 8; a console that reaches every chat deserves more). */
export const NewPasswordSchema = z
  .string({ error: 'password must be a string' })
  .min(10, 'password must be at least 10 characters')
  .max(1024, 'password is at most 1024 characters');

export const AcceptInvitationBody = z.object({
  token: z.string({ error: 'token must be a string' }).min(1, 'token must not be empty').max(200, 'token is at most 200 characters'),
  password: NewPasswordSchema,
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .min(1, 'name must not be empty')
    .max(100, 'name is at most 100 characters')
    .optional(),
});

export const AcceptInvitationRpc = defineRpc({
  subject: 'members.v1.auth.accept-invite',
  service: 'members',
  request: z.object({ body: AcceptInvitationBody }),
  response: IssuedSession,
});
export type AcceptInvitationRequest = z.infer<typeof AcceptInvitationRpc.request>;

export const AcceptInvitationRoute = defineRoute({
  operationId: 'acceptInvitation',
  method: 'POST',
  path: '/auth/accept-invite',
  tag: 'auth',
  summary: 'Accept an invitation: set a password and sign in',
  description:
    "The token of the invitation link (the link's #token=…), the member's new password (10 characters or more) and optionally a name. " +
    'A link works once and until it expires; an unknown, used or expired one is 422 on token. Answers as sign-in, with the cookies set.',
  body: AcceptInvitationBody,
  phone: 'none',
  auth: 'public',
  session: 'issue',
  rpc: AcceptInvitationRpc,
  successStatus: 200,
  response: ConsoleSessionAnswer,
});
