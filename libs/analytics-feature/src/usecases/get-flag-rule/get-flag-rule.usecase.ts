import type { GetFlagRuleRequest, GetFlagRuleResult } from '@mapi/contracts';
import { ruleOrNotFound } from '../../flagging/flag-access';
import type { FlagRuleRepository } from '../../flagging/flag-rule-repository';
import { mapFlagRule } from '../../flagging/map-flag-rule';

/** GET /analytics/flag-rules/{rule_id}. */
export class GetFlagRule {
  constructor(
    private readonly rules: FlagRuleRepository,
    private readonly modelOn: boolean,
  ) {}

  async execute({ ctx, params }: GetFlagRuleRequest): Promise<GetFlagRuleResult> {
    return { rule: mapFlagRule(ruleOrNotFound(ctx, params.rule_id, await this.rules.get(ctx.org_id, params.rule_id)), this.modelOn) };
  }
}
