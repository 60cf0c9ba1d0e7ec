import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';

export const SignOutRpc = defineRpc({
  subject: 'members.v1.auth.sign-out',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema }),
  response: z.null(),
});
export type SignOutRequest = z.infer<typeof SignOutRpc.request>;

export const SignOutRoute = defineRoute({
  operationId: 'signOut',
  method: 'POST',
  path: '/auth/sign-out',
  tag: 'auth',
  summary: 'End this console session',
  description: 'Ends the session of the cookie (x-csrf-token required) and clears the cookies. A bearer token is 401 here.',
  phone: 'none',
  auth: 'session',
  session: 'clear',
  rpc: SignOutRpc,
  successStatus: 204,
});
