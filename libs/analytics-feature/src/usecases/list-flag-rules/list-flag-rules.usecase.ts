import type { ListFlagRulesRequest, ListFlagRulesResult } from '@mapi/contracts';
import { policyInReach } from '../../sla/sla-access';
import type { FlagRuleRepository } from '../../flagging/flag-rule-repository';
import { mapFlagRule } from '../../flagging/map-flag-rule';

/** GET /analytics/flag-rules: the organization's rules a caller sees (every phone's, and those of its phones). */
export class ListFlagRules {
  constructor(
    private readonly rules: FlagRuleRepository,
    private readonly modelOn: boolean,
  ) {}

  async execute({ ctx }: ListFlagRulesRequest): Promise<ListFlagRulesResult> {
    const rows = await this.rules.list(ctx.org_id);
    return { rules: rows.filter((r) => policyInReach(ctx, r)).map((r) => mapFlagRule(r, this.modelOn)) };
  }
}
