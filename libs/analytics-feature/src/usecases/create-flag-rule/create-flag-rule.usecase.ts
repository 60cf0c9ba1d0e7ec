import { Errors, MAX_FLAG_RULES, type CreateFlagRuleRequest, type CreateFlagRuleResult } from '@mapi/contracts';
import { assertRulePhoneInReach } from '../../flagging/flag-access';
import type { FlagRuleRepository } from '../../flagging/flag-rule-repository';
import { mapFlagRule } from '../../flagging/map-flag-rule';

/** POST /analytics/flag-rules: a rule of the organization (ctx.org_id); at most MAX_FLAG_RULES. */
export class CreateFlagRule {
  constructor(
    private readonly rules: FlagRuleRepository,
    private readonly modelOn: boolean,
  ) {}

  async execute({ ctx, body }: CreateFlagRuleRequest): Promise<CreateFlagRuleResult> {
    assertRulePhoneInReach(ctx, body.phone_id);
    if ((await this.rules.count(ctx.org_id)) >= MAX_FLAG_RULES) {
      const message = `an organization has at most ${MAX_FLAG_RULES} flag rules: delete one first`;
      throw Errors.validation({ name: { message, value: body.name } }, message);
    }
    return { rule: mapFlagRule(await this.rules.create(ctx.org_id, body), this.modelOn) };
  }
}
