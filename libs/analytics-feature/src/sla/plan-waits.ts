import { addBusinessMs, type BusinessSchedule } from '../business-hours/business-time';
import type { SlaPolicyRow } from './map-sla-policy';
import { chatKey, copyKey, type SlaMessageFact } from './sla-facts';

/** A wait to arm: the policy's deadline for an incoming message of a chat copy. */
export interface PlannedWait {
  org_id: string;
  policy_id: string;
  phone_id: string;
  chat_id: string;
  message_id: string;
  started_at: number;
  due_at: number;
  business_hours: boolean;
}

export interface PlanInput {
  /** The batch's incoming messages. */
  incoming: SlaMessageFact[];
  /** The enabled policies of the batch's organizations. */
  policies: SlaPolicyRow[];
  /** Each organization's schedule (absent: wall-clock time). */
  schedules: Map<string, BusinessSchedule>;
  /** Each chat copy's latest known reply (epoch ms), this batch's included (copyKey). */
  lastOut: Map<string, number>;
  /** Each chat's labels (chatKey). */
  labels: Map<string, string[]>;
  now: number;
  /** How long a policy's minute lasts (60 000; less in tests). */
  minuteMs: number;
  /** Incoming messages older than this at `now` arm nothing (imports, replays). */
  lateCutoffMs: number;
}

/** Messages carry whole seconds (WhatsApp's timestamps): a policy applies from the second it was created in. */
const appliesFrom = (policy: SlaPolicyRow) => Math.floor(policy.created_at.getTime() / 1000) * 1000;

/**
 * The waits a batch of incoming messages arms (pure; docs/services/analytics.md "Breaches"): for each
 * message not older than the cut-off and newer than its chat's latest reply (one answered already,
 * arriving late, arms nothing), each enabled policy of its organization that applies — its phone (or
 * every phone), its label among the chat's labels (or every chat), created at or before the message (in the same second counts),
 * `first_response` when the chat copy has no reply yet and `next_response` when it has — gives a
 * deadline from the message's timestamp (not after now): `minutes` in business time when the
 * organization has a schedule (no deadline at all when its hours never come), wall-clock otherwise.
 * Per (policy, chat copy) the earliest message is kept: one wait per chat and policy.
 */
export function planWaits(p: PlanInput): PlannedWait[] {
  const byOrg = new Map<string, SlaPolicyRow[]>();
  for (const policy of p.policies) byOrg.set(policy.org_id, [...(byOrg.get(policy.org_id) ?? []), policy]);
  const waits = new Map<string, PlannedWait>();
  for (const m of p.incoming) {
    if (m.from_me || m.at < p.now - p.lateCutoffMs) continue;
    const lastOut = p.lastOut.get(copyKey(m));
    if (lastOut !== undefined && lastOut >= m.at) continue;
    const kind = lastOut === undefined ? 'first_response' : 'next_response';
    const labels = p.labels.get(chatKey(m)) ?? [];
    const schedule = p.schedules.get(m.org_id);
    const started = Math.min(m.at, p.now);
    for (const policy of byOrg.get(m.org_id) ?? []) {
      if (!policy.enabled || policy.kind !== kind || appliesFrom(policy) > m.at) continue;
      if (policy.phone_id !== null && policy.phone_id !== m.phone_id) continue;
      if (policy.label_id !== null && !labels.includes(policy.label_id)) continue;
      const ms = policy.minutes * p.minuteMs;
      const due = schedule ? addBusinessMs(schedule, started, ms) : started + ms;
      if (due === null) continue;
      const key = `${policy.policy_id}\u0000${m.phone_id}\u0000${m.chat_id}`;
      const held = waits.get(key);
      if (held && held.started_at <= started) continue;
      waits.set(key, {
        org_id: m.org_id,
        policy_id: policy.policy_id,
        phone_id: m.phone_id,
        chat_id: m.chat_id,
        message_id: m.message_id,
        started_at: started,
        due_at: due,
        business_hours: !!schedule,
      });
    }
  }
  return [...waits.values()].sort((a, b) => a.policy_id.localeCompare(b.policy_id) || copyKey(a).localeCompare(copyKey(b)));
}
