import type { DeleteFlagRuleRequest, DeleteFlagRuleResult } from '@mapi/contracts';
import { assertRulePhoneInReach, ruleOrNotFound } from '../../flagging/flag-access';
import type { FlagRuleRepository } from '../../flagging/flag-rule-repository';
import { mapFlagRule } from '../../flagging/map-flag-rule';

/** DELETE /analytics/flag-rules/{rule_id}: the rule and its pending jobs deleted; answered as it was. */
export class DeleteFlagRule {
  constructor(
    private readonly rules: FlagRuleRepository,
    private readonly modelOn: boolean,
  ) {}

  async execute({ ctx, params }: DeleteFlagRuleRequest): Promise<DeleteFlagRuleResult> {
    const before = ruleOrNotFound(ctx, params.rule_id, await this.rules.get(ctx.org_id, params.rule_id));
    assertRulePhoneInReach(ctx, before.phone_id);
    const row = await this.rules.delete(ctx.org_id, params.rule_id);
    return { rule: mapFlagRule(ruleOrNotFound(ctx, params.rule_id, row), this.modelOn) };
  }
}
