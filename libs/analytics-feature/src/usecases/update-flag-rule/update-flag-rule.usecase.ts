import { Errors, FLAG_RULE_FIELD, type FlagRuleKind, type UpdateFlagRuleRequest, type UpdateFlagRuleResult } from '@mapi/contracts';
import { assertRulePhoneInReach, ruleOrNotFound } from '../../flagging/flag-access';
import type { FlagRuleRepository } from '../../flagging/flag-rule-repository';
import { mapFlagRule } from '../../flagging/map-flag-rule';

/** PATCH /analytics/flag-rules/{rule_id}: the named fields changed; a field of another kind than the rule's is a 422 naming it. */
export class UpdateFlagRule {
  constructor(
    private readonly rules: FlagRuleRepository,
    private readonly modelOn: boolean,
  ) {}

  async execute({ ctx, params, body }: UpdateFlagRuleRequest): Promise<UpdateFlagRuleResult> {
    const before = ruleOrNotFound(ctx, params.rule_id, await this.rules.get(ctx.org_id, params.rule_id));
    const own = FLAG_RULE_FIELD[before.kind as FlagRuleKind];
    for (const f of Object.values(FLAG_RULE_FIELD))
      if (f !== own && body[f] !== undefined) {
        const message = `${f} does not apply to a ${before.kind} rule (it takes ${own})`;
        throw Errors.validation({ [f]: { message, value: body[f] } }, message);
      }
    assertRulePhoneInReach(ctx, before.phone_id);
    if (body.phone_id !== undefined) assertRulePhoneInReach(ctx, body.phone_id);
    const after = await this.rules.update(ctx.org_id, params.rule_id, body);
    return { rule: mapFlagRule(ruleOrNotFound(ctx, params.rule_id, after), this.modelOn) };
  }
}
