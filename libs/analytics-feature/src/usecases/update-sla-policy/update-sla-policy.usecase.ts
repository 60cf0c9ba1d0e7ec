import type { UpdateSlaPolicyRequest, UpdateSlaPolicyResult } from '@mapi/contracts';
import { mapSlaPolicy } from '../../sla/map-sla-policy';
import { policyOrNotFound } from '../../sla/policy-or-not-found';
import { assertPhoneInReach } from '../../sla/sla-access';
import type { SlaPolicyRepository } from '../../sla/sla-policy-repository';

/** PATCH /analytics/sla-policies/{policy_id}: the named fields changed (see SlaPolicyRepository.update for its waits). */
export class UpdateSlaPolicy {
  constructor(private readonly policies: SlaPolicyRepository) {}

  async execute({ ctx, params, body }: UpdateSlaPolicyRequest): Promise<UpdateSlaPolicyResult> {
    const before = policyOrNotFound(ctx, params.policy_id, await this.policies.get(ctx.org_id, params.policy_id));
    assertPhoneInReach(ctx, before.phone_id);
    if (body.phone_id !== undefined) assertPhoneInReach(ctx, body.phone_id);
    const after = await this.policies.update(ctx.org_id, params.policy_id, body);
    return { policy: mapSlaPolicy(policyOrNotFound(ctx, params.policy_id, after)) };
  }
}
