import type { SlaKind, SlaPolicy } from '@mapi/contracts';

/** A row of analytics_sla_policies. */
export interface SlaPolicyRow {
  policy_id: string;
  org_id: string;
  name: string;
  kind: string;
  minutes: number;
  label_id: string | null;
  phone_id: string | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

/** analytics_sla_policies row → the API's policy. */
export function mapSlaPolicy(row: SlaPolicyRow): SlaPolicy {
  return {
    policy_id: row.policy_id,
    org_id: row.org_id,
    name: row.name,
    kind: row.kind as SlaKind,
    minutes: row.minutes,
    label_id: row.label_id,
    phone_id: row.phone_id,
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
