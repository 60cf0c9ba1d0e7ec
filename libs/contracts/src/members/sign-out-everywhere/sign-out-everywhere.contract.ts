import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';

export const SignOutEverywhereRpc = defineRpc({
  subject: 'members.v1.auth.sign-out-everywhere',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema }),
  response: z.object({ sessions_ended: z.number().int() }),
});
export type SignOutEverywhereRequest = z.infer<typeof SignOutEverywhereRpc.request>;

export const SignOutEverywhereRoute = defineRoute({
  operationId: 'signOutEverywhere',
  method: 'POST',
  path: '/auth/sign-out-everywhere',
  tag: 'auth',
  summary: 'End every console session of the signed-in member',
  description: "Ends all of the member's sessions, this one included, and clears this browser's cookies (x-csrf-token required).",
  phone: 'none',
  auth: 'session',
  session: 'clear',
  rpc: SignOutEverywhereRpc,
  successStatus: 200,
  response: z.object({ sessions_ended: z.number().int() }),
});
