import type { FlagRule, FlagRuleKind } from '@mapi/contracts';
import type { FlagRuleRow } from './flag-rule-row';

/** analytics_flag_rules row → the API's rule; `modelOn`: a model is configured (a model rule is active only then). */
export function mapFlagRule(row: FlagRuleRow, modelOn: boolean): FlagRule {
  return {
    rule_id: row.rule_id,
    org_id: row.org_id,
    name: row.name,
    kind: row.kind as FlagRuleKind,
    keywords: row.kind === 'keyword' ? row.keywords : null,
    label_id: row.label_id,
    minutes: row.minutes,
    prompt: row.prompt,
    phone_id: row.phone_id,
    enabled: row.enabled,
    active: row.enabled && (row.kind !== 'model' || modelOn),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
