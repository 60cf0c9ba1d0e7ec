import { ErrorCode, Errors, ServiceError, type RequestContext } from '@mapi/contracts';
import type { SlaPolicyRow } from './map-sla-policy';

/** The schedule and organization-wide policies are the whole organization's: a token (or member) limited to phones may not change them. */
export function assertWholeOrganization(ctx: RequestContext, what: string): void {
  if (ctx.phone_scope !== null) throw new ServiceError(ErrorCode.FORBIDDEN_ERROR, 403, `A token limited to phones cannot change ${what}`);
}

/** A policy a caller sees: every phone's (phone_id null), or one of the caller's phones. */
export const policyInReach = (ctx: RequestContext, p: Pick<SlaPolicyRow, 'phone_id'>): boolean =>
  p.phone_id === null || ctx.phone_scope === null || ctx.phone_scope.includes(p.phone_id);

/** A phone named by a policy the caller writes: one of the caller's phones (else 404, as another organization's). */
export function assertPhoneInReach(ctx: RequestContext, phoneId: string | null | undefined): void {
  if (phoneId === null || phoneId === undefined) {
    assertWholeOrganization(ctx, 'a policy of every phone (name one of its phones in phone_id)');
    return;
  }
  if (ctx.phone_scope !== null && !ctx.phone_scope.includes(phoneId)) throw Errors.notFound(`Phone ${phoneId} not found`);
}
