import { ErrorCode, RecordAuditRpc, ServiceError, type RouteContract } from '@mapi/contracts';
import type { Logger, NatsRpcClient } from '@mapi/platform';
import type { FastifyReply } from 'fastify';
import type { Authenticator } from '../auth/authenticator';
import { clearedCookies, sessionCookies, type CookieOptions } from '../auth/cookies';
import type { Principal } from '../auth/principal';

/** A route for owners (and admins): a console session of a lesser role is refused before the service sees it. */
export function checkRole(route: RouteContract, principal: Principal): void {
  if (route.role === 'admin' && principal.member?.role === 'member') {
    throw new ServiceError(ErrorCode.FORBIDDEN_ERROR, 403, 'Only owners and admins can do this');
  }
  if (route.role === 'owner' && principal.member && principal.member.role !== 'owner') {
    throw new ServiceError(ErrorCode.FORBIDDEN_ERROR, 403, "Only the organization's owners can do this");
  }
}

/**
 * `session: 'issue'`: the service's answer carries `session_token`; it goes into the http-only cookie
 * and never into the body. Returns the body to send.
 */
export function issueSession(body: Buffer, reply: FastifyReply, options: CookieOptions): string {
  const { session_token, ...answer } = JSON.parse(body.toString('utf8')) as {
    session_token: string;
    csrf_token: string;
    expires_at: string;
  };
  reply.header('set-cookie', sessionCookies(session_token, answer.csrf_token, new Date(answer.expires_at), options));
  reply.header('cache-control', 'no-store');
  return JSON.stringify(answer);
}

/** `session: 'clear'`: the cookies go, and this replica forgets the member's cached sessions at once. */
export function clearSession(reply: FastifyReply, principal: Principal, auth: Authenticator, options: CookieOptions): void {
  reply.header('set-cookie', clearedCookies(options));
  if (principal.member) auth.forgetSessions(principal.member.member_id);
}

/**
 * An audited route answered 2xx: one entry in the organization's trail (members.v1.audit.record),
 * sent after the answer so it adds no latency; a failure is logged (the change itself is done).
 */
export function recordAudit(
  route: RouteContract,
  principal: Principal,
  params: Record<string, unknown> | undefined,
  phoneId: string | undefined,
  rpc: NatsRpcClient,
  logger: Logger,
): void {
  if (!route.audit) return;
  const { action, target } = route.audit;
  const value = target === 'x-phone' ? phoneId : target ? params?.[target] : undefined;
  const body = {
    org_id: principal.org_id,
    actor_type: principal.member ? ('member' as const) : ('token' as const),
    actor_id: principal.member?.member_id ?? principal.token_id,
    actor_email: principal.member?.email ?? null,
    action,
    target: value === undefined || value === null ? null : String(value),
    details: { route: `${route.method} ${route.path}` },
  };
  rpc
    .call(RecordAuditRpc, { body })
    .catch((err) => logger.warn({ err: (err as Error).message, action }, 'could not record an audit entry'));
}
