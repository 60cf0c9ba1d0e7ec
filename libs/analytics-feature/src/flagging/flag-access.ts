import { Errors, type RequestContext } from '@mapi/contracts';
import { assertWholeOrganization, policyInReach } from '../sla/sla-access';
import type { FlagRuleRow } from './flag-rule-row';

/** A phone named by a rule the caller writes: one of the caller's phones (else 404, as another organization's); none: the whole organization's. */
export function assertRulePhoneInReach(ctx: RequestContext, phoneId: string | null | undefined): void {
  if (phoneId === null || phoneId === undefined) {
    assertWholeOrganization(ctx, 'a flag rule of every phone (name one of its phones in phone_id)');
    return;
  }
  if (ctx.phone_scope !== null && !ctx.phone_scope.includes(phoneId)) throw Errors.notFound(`Phone ${phoneId} not found`);
}

/** The rule, or 404 when there is none of the organization by that id, or it is another phone's than the caller's. */
export function ruleOrNotFound(ctx: RequestContext, ruleId: string, row: FlagRuleRow | null): FlagRuleRow {
  if (!row || !policyInReach(ctx, row)) throw Errors.notFound(`Flag rule ${ruleId} not found`);
  return row;
}
