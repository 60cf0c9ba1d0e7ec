import type { ListSlaPoliciesRequest, ListSlaPoliciesResult } from '@mapi/contracts';
import { mapSlaPolicy } from '../../sla/map-sla-policy';
import { policyInReach } from '../../sla/sla-access';
import type { SlaPolicyRepository } from '../../sla/sla-policy-repository';

/** GET /analytics/sla-policies: the organization's policies within the caller's phones, oldest first. */
export class ListSlaPolicies {
  constructor(private readonly policies: SlaPolicyRepository) {}

  async execute({ ctx }: ListSlaPoliciesRequest): Promise<ListSlaPoliciesResult> {
    const rows = await this.policies.list(ctx.org_id);
    return { policies: rows.filter((p) => policyInReach(ctx, p)).map(mapSlaPolicy) };
  }
}
