import { z } from 'zod';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { EmailSchema, MemberRowSchema } from '../member/member.schema';

export const PasswordSchema = z
  .string({ error: 'password must be a string' })
  .min(1, 'password must not be empty')
  .max(1024, 'password is at most 1024 characters');

export const SignInBody = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  /** Which organization, when the address is a member of several (else the oldest membership whose password matches). */
  org_id: z.uuid({ error: 'org_id must be a UUID' }).optional(),
});

/** What the console gets: the member, the CSRF token for its state-changing requests, and when the session ends. */
export const ConsoleSessionAnswer = z.object({
  member: MemberRowSchema,
  org_id: z.string(),
  csrf_token: z.string(),
  expires_at: z.string(),
});

/** The service's answer: the console's, plus the session token the gateway moves into the http-only cookie. */
export const IssuedSession = ConsoleSessionAnswer.extend({ session_token: z.string() });
export type IssuedSession = z.infer<typeof IssuedSession>;

export const SignInRpc = defineRpc({
  subject: 'members.v1.auth.sign-in',
  service: 'members',
  request: z.object({ body: SignInBody }),
  response: IssuedSession,
});
export type SignInRequest = z.infer<typeof SignInRpc.request>;

export const SignInRoute = defineRoute({
  operationId: 'signIn',
  method: 'POST',
  path: '/auth/sign-in',
  tag: 'auth',
  summary: 'Sign a member in to the console',
  description:
    'Email and password of a member who accepted an invitation. Sets the http-only, SameSite=Strict session cookie (mapi_session) ' +
    'and the CSRF cookie (mapi_csrf, also in the answer): send it back as x-csrf-token on every POST, PUT, PATCH and DELETE made ' +
    'with the session. Wrong credentials are 401, worded alike for an unknown address. Failed attempts are counted per address ' +
    'and per client address: past SIGN_IN_MAX_FAILURES_* within SIGN_IN_WINDOW_SECONDS the answer is 429 with Retry-After.',
  body: SignInBody,
  phone: 'none',
  auth: 'public',
  session: 'issue',
  throttle: 'sign-in',
  rpc: SignInRpc,
  successStatus: 200,
  response: ConsoleSessionAnswer,
});
