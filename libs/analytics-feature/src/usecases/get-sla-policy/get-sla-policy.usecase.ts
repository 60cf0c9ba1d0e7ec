import type { GetSlaPolicyRequest, GetSlaPolicyResult } from '@mapi/contracts';
import { mapSlaPolicy } from '../../sla/map-sla-policy';
import { policyOrNotFound } from '../../sla/policy-or-not-found';
import type { SlaPolicyRepository } from '../../sla/sla-policy-repository';

/** GET /analytics/sla-policies/{policy_id}: another organization's (or phone's) is 404. */
export class GetSlaPolicy {
  constructor(private readonly policies: SlaPolicyRepository) {}

  async execute({ ctx, params }: GetSlaPolicyRequest): Promise<GetSlaPolicyResult> {
    return { policy: mapSlaPolicy(policyOrNotFound(ctx, params.policy_id, await this.policies.get(ctx.org_id, params.policy_id))) };
  }
}
