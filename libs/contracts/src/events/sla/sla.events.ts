import { z } from 'zod';
import { SLA_KINDS } from '../../analytics/sla-policies/sla-policy.schema';
import { defineEvent } from '../define-event';

/** What `sla.breached` carries (ours, issue 34; docs/services/analytics.md "Breaches"). */
export const SlaBreachSchema = z.object({
  /** The wait's id: one breach per id, ever. */
  breach_id: z.string(),
  policy_id: z.string(),
  policy_name: z.string(),
  kind: z.enum(SLA_KINDS),
  minutes: z.number().int(),
  /** The policy's label (null: every chat) and phone (null: every phone). */
  label_id: z.string().nullable(),
  policy_phone_id: z.string().nullable(),
  phone_id: z.string(),
  chat_id: z.string(),
  /** The incoming message the wait started with, and its timestamp. */
  message_id: z.string(),
  waiting_since: z.string(),
  /** The deadline (business time when `business_hours`) and when the breach was recorded. */
  due_at: z.string(),
  breached_at: z.string(),
  business_hours: z.boolean(),
});
export type SlaBreach = z.infer<typeof SlaBreachSchema>;

export const SlaBreachedEvent = defineEvent({
  name: 'sla.breached',
  subject: 'events.v1.sla.breached',
  summary:
    "A chat waited past an SLA policy's deadline with no reply (emitted once per wait by the analytics service); data names the policy, chat and message.",
  data: SlaBreachSchema,
});
