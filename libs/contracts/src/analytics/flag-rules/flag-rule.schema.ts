import { z } from 'zod';

/** What flags a message (docs/services/analytics.md "Flagging"). */
export const FLAG_RULE_KINDS = ['keyword', 'label', 'waiting', 'model'] as const;
export type FlagRuleKind = (typeof FLAG_RULE_KINDS)[number];
/** Rules per organization at most. */
export const MAX_FLAG_RULES = 100;
/** Keywords per rule at most. */
export const MAX_FLAG_KEYWORDS = 50;
/** The longest wait a rule sets: 30 days. */
export const MAX_FLAG_MINUTES = 43_200;

const name = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name must not be empty')
  .max(200, 'name must be at most 200 characters');
const kind = z.enum(FLAG_RULE_KINDS, { error: `kind must be one of ${FLAG_RULE_KINDS.join(', ')}` });
const keywords = z
  .array(
    z
      .string({ error: 'each keyword must be a string' })
      .trim()
      .min(1, 'a keyword must not be empty')
      .max(100, 'a keyword must be at most 100 characters'),
    { error: 'keywords must be an array of words or phrases' },
  )
  .min(1, 'keywords must name at least one word or phrase')
  .max(MAX_FLAG_KEYWORDS, `keywords must name at most ${MAX_FLAG_KEYWORDS} words or phrases`);
const labelId = z.string({ error: 'label_id must be a string' }).trim().min(1, 'label_id must not be empty').max(200);
const minutes = z
  .number({ error: 'minutes must be a whole number of minutes' })
  .int('minutes must be a whole number of minutes')
  .min(1, 'minutes must be at least 1')
  .max(MAX_FLAG_MINUTES, `minutes must be at most ${MAX_FLAG_MINUTES} (30 days)`);
const prompt = z
  .string({ error: 'prompt must be a string' })
  .trim()
  .min(1, 'prompt must not be empty')
  .max(2000, 'prompt must be at most 2000 characters');
const phoneId = z.string().trim().min(1, 'phone_id must not be empty').max(200).nullable();
const enabled = z.boolean({ error: 'enabled must be true or false' });

/** The field each kind needs (and only it). */
export const FLAG_RULE_FIELD: Record<FlagRuleKind, 'keywords' | 'label_id' | 'minutes' | 'prompt'> = {
  keyword: 'keywords',
  label: 'label_id',
  waiting: 'minutes',
  model: 'prompt',
};
const KIND_FIELDS = Object.values(FLAG_RULE_FIELD);

/** A rule's kind-specific fields: the one its kind needs present, the others absent (an issue naming the field otherwise). */
export function checkFlagRuleFields(kind: FlagRuleKind, b: Record<string, unknown>, ctx: z.RefinementCtx, requireOwn: boolean): void {
  const own = FLAG_RULE_FIELD[kind];
  if (requireOwn && (b[own] === undefined || b[own] === null))
    ctx.addIssue({ code: 'custom', path: [own], message: `${own} is required for a ${kind} rule` });
  for (const f of KIND_FIELDS)
    if (f !== own && b[f] !== undefined && b[f] !== null)
      ctx.addIssue({ code: 'custom', path: [f], message: `${f} does not apply to a ${kind} rule (it takes ${own})` });
}

/** POST /analytics/flag-rules. */
export const FlagRuleCreateBody = z
  .strictObject({
    name,
    kind,
    keywords: keywords.optional(),
    label_id: labelId.optional(),
    minutes: minutes.optional(),
    prompt: prompt.optional(),
    phone_id: phoneId.optional(),
    enabled: enabled.default(true),
  })
  .superRefine((b, ctx) => checkFlagRuleFields(b.kind, b, ctx, true));
export type FlagRuleCreateBody = z.infer<typeof FlagRuleCreateBody>;

/** PATCH /analytics/flag-rules/{rule_id}: the fields to change (at least one); the kind stays, and only its own field may change. */
export const FlagRuleUpdateBody = z
  .strictObject({
    name: name.optional(),
    keywords: keywords.optional(),
    label_id: labelId.optional(),
    minutes: minutes.optional(),
    prompt: prompt.optional(),
    phone_id: phoneId.optional(),
    enabled: enabled.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'the body must name at least one field to change' });
export type FlagRuleUpdateBody = z.infer<typeof FlagRuleUpdateBody>;

export const FlagRuleParams = z.object({ rule_id: z.uuid({ error: 'rule_id must be a UUID' }) });

export const FlagRuleSchema = z.object({
  rule_id: z.string(),
  org_id: z.string(),
  name: z.string(),
  kind: z.enum(FLAG_RULE_KINDS),
  keywords: z.array(z.string()).nullable(),
  label_id: z.string().nullable(),
  minutes: z.number().int().nullable(),
  prompt: z.string().nullable(),
  phone_id: z.string().nullable(),
  enabled: z.boolean(),
  /** False for a model rule while no model is configured (AI_AGENT_BASE_URL, AI_AGENT_MODEL): it flags nothing then. */
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FlagRule = z.infer<typeof FlagRuleSchema>;
