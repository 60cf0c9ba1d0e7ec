import { Errors, MAX_SLA_POLICIES, type CreateSlaPolicyRequest, type CreateSlaPolicyResult } from '@mapi/contracts';
import { mapSlaPolicy } from '../../sla/map-sla-policy';
import { assertPhoneInReach } from '../../sla/sla-access';
import type { SlaPolicyRepository } from '../../sla/sla-policy-repository';

/** POST /analytics/sla-policies: a policy of the organization (ctx.org_id); at most MAX_SLA_POLICIES. */
export class CreateSlaPolicy {
  constructor(private readonly policies: SlaPolicyRepository) {}

  async execute({ ctx, body }: CreateSlaPolicyRequest): Promise<CreateSlaPolicyResult> {
    assertPhoneInReach(ctx, body.phone_id);
    if ((await this.policies.count(ctx.org_id)) >= MAX_SLA_POLICIES) {
      const message = `an organization has at most ${MAX_SLA_POLICIES} SLA policies: delete one first`;
      throw Errors.validation({ name: { message, value: body.name } }, message);
    }
    return { policy: mapSlaPolicy(await this.policies.create(ctx.org_id, body)) };
  }
}
