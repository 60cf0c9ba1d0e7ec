import { z } from 'zod';

export const SLA_KINDS = ['first_response', 'next_response'] as const;
export type SlaKind = (typeof SLA_KINDS)[number];
/** The longest deadline a policy sets: 30 days. */
export const MAX_SLA_MINUTES = 43_200;
/** Policies per organization at most. */
export const MAX_SLA_POLICIES = 100;

const name = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name must not be empty')
  .max(200, 'name must be at most 200 characters');
const kind = z.enum(SLA_KINDS, { error: `kind must be one of ${SLA_KINDS.join(', ')}` });
const minutes = z
  .number({ error: 'minutes must be a whole number of minutes' })
  .int('minutes must be a whole number of minutes')
  .min(1, 'minutes must be at least 1')
  .max(MAX_SLA_MINUTES, `minutes must be at most ${MAX_SLA_MINUTES} (30 days)`);
const labelId = z.string().trim().min(1, 'label_id must not be empty').max(200).nullable();
const phoneId = z.string().trim().min(1, 'phone_id must not be empty').max(200).nullable();
const enabled = z.boolean({ error: 'enabled must be true or false' });

/** POST /analytics/sla-policies. */
export const SlaPolicyCreateBody = z.strictObject({
  name,
  kind,
  minutes,
  label_id: labelId.optional(),
  phone_id: phoneId.optional(),
  enabled: enabled.default(true),
});
export type SlaPolicyCreateBody = z.infer<typeof SlaPolicyCreateBody>;

/** PATCH /analytics/sla-policies/{policy_id}: the fields to change (at least one). */
export const SlaPolicyUpdateBody = z
  .strictObject({
    name: name.optional(),
    kind: kind.optional(),
    minutes: minutes.optional(),
    label_id: labelId.optional(),
    phone_id: phoneId.optional(),
    enabled: enabled.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'the body must name at least one field to change' });
export type SlaPolicyUpdateBody = z.infer<typeof SlaPolicyUpdateBody>;

export const SlaPolicyParams = z.object({ policy_id: z.uuid({ error: 'policy_id must be a UUID' }) });

export const SlaPolicySchema = z.object({
  policy_id: z.string(),
  org_id: z.string(),
  name: z.string(),
  kind: z.enum(SLA_KINDS),
  minutes: z.number().int(),
  label_id: z.string().nullable(),
  phone_id: z.string().nullable(),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SlaPolicy = z.infer<typeof SlaPolicySchema>;
