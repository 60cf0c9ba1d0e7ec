import { Errors, type RequestContext } from '@mapi/contracts';
import type { SlaPolicyRow } from './map-sla-policy';
import { policyInReach } from './sla-access';

/** The policy, or 404 when there is none of the organization by that id, or it is another phone's than the caller's. */
export function policyOrNotFound(ctx: RequestContext, policyId: string, row: SlaPolicyRow | null): SlaPolicyRow {
  if (!row || !policyInReach(ctx, row)) throw Errors.notFound(`SLA policy ${policyId} not found`);
  return row;
}
