/** A row of analytics_flag_rules. */
export interface FlagRuleRow {
  rule_id: string;
  org_id: string;
  name: string;
  kind: string;
  keywords: string[];
  label_id: string | null;
  minutes: number | null;
  prompt: string | null;
  phone_id: string | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}
