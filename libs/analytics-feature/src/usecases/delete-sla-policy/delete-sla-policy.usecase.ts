import type { DeleteSlaPolicyRequest, DeleteSlaPolicyResult } from '@mapi/contracts';
import { mapSlaPolicy } from '../../sla/map-sla-policy';
import { policyOrNotFound } from '../../sla/policy-or-not-found';
import { assertPhoneInReach } from '../../sla/sla-access';
import type { SlaPolicyRepository } from '../../sla/sla-policy-repository';

/** DELETE /analytics/sla-policies/{policy_id}: the policy and its waits; answers the policy as it was. */
export class DeleteSlaPolicy {
  constructor(private readonly policies: SlaPolicyRepository) {}

  async execute({ ctx, params }: DeleteSlaPolicyRequest): Promise<DeleteSlaPolicyResult> {
    const before = policyOrNotFound(ctx, params.policy_id, await this.policies.get(ctx.org_id, params.policy_id));
    assertPhoneInReach(ctx, before.phone_id);
    return { policy: mapSlaPolicy(policyOrNotFound(ctx, params.policy_id, await this.policies.delete(ctx.org_id, params.policy_id))) };
  }
}
