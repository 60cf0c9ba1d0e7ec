import { z } from 'zod';

/** Condition operators of @periskope/types (`ConditionLeaf`), by the kind of value they compare. */
export const STRING_CONDITIONS = ['CONTAINS', 'NCONTAINS', 'EQUALS', 'NEQUALS', 'STARTS_WITH', 'ENDS_WITH'] as const;
export const ORDER_CONDITIONS = ['GREATER_THAN', 'GREATER_THAN_OR_EQUAL', 'LESS_THAN', 'LESS_THAN_OR_EQUAL'] as const;
export const EXISTS_CONDITIONS = ['IS_KNOWN', 'IS_UNKNOWN'] as const;
export const BOOLEAN_CONDITIONS = ['IS', 'IS_NOT'] as const;
export const ARRAY_CONDITIONS = ['IS_ANY_OF', 'IS_NOT_ANY_OF'] as const;
export const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

const id = z.string({ error: 'id must be a string' }).min(1, 'id must not be empty').max(200, 'id is at most 200 characters');
const variable = z
  .string({ error: 'variable_name must be a string' })
  .regex(/^[a-z_]+(\.[a-zA-Z0-9_]+)+$/, 'variable_name must be <object>.<field>, e.g. message.body');
const timezone = z
  .string({ error: 'timezone must be an IANA time zone' })
  .refine(isTimeZone, 'timezone must be an IANA time zone, e.g. Asia/Kolkata');

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz.length > 0;
  } catch {
    return false;
  }
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

/** One comparison of a variable of the event's objects (`message.body`, `chat.chat_id`, …). */
export const ConditionLeafSchema = z.discriminatedUnion(
  'variable_type',
  [
    z.object({
      id,
      variable_name: variable,
      variable_type: z.literal('string'),
      condition: z.enum(STRING_CONDITIONS),
      value: z.string({ error: 'value must be a string' }).max(10_000),
    }),
    z.object({
      id,
      variable_name: variable,
      variable_type: z.literal('number'),
      condition: z.enum(ORDER_CONDITIONS),
      value: z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, 'value must be a number')]),
    }),
    z.object({
      id,
      variable_name: variable,
      variable_type: z.literal('date'),
      condition: z.enum(ORDER_CONDITIONS),
      timezone: timezone.optional(),
      value: z
        .string()
        .refine((v) => !Number.isNaN(Date.parse(v)) || /^\d{10,16}$/.test(v), 'value must be an ISO 8601 date or epoch milliseconds'),
    }),
    z.object({
      id,
      variable_name: variable,
      variable_type: z.literal('time'),
      condition: z.enum(ORDER_CONDITIONS),
      timezone,
      value: z.string().regex(TIME, 'value must be a time of day HH:mm or HH:mm:ss'),
    }),
    z.object({ id, variable_name: variable, variable_type: z.null(), condition: z.enum(EXISTS_CONDITIONS), value: z.null().optional() }),
    z.object({
      id,
      variable_name: variable,
      variable_type: z.literal('day'),
      condition: z.literal('ON'),
      timezone,
      value: z.union([
        z.enum(DAYS, { error: `value must be a day: ${DAYS.join(', ')}` }),
        z.array(z.enum(DAYS, { error: `each day must be one of ${DAYS.join(', ')}` })).min(1),
      ]),
    }),
    z.object({
      id,
      variable_name: variable,
      variable_type: z.literal('boolean'),
      condition: z.enum(BOOLEAN_CONDITIONS),
      value: z.union([z.boolean(), z.enum(['true', 'false'])]),
    }),
    z.object({
      id,
      variable_name: variable,
      variable_type: z.literal('array'),
      condition: z.enum(ARRAY_CONDITIONS),
      value: z.array(z.string().max(1_000)).max(1_000),
    }),
  ],
  { error: 'variable_type must be string, number, date, time, day, boolean, array or null (with IS_KNOWN / IS_UNKNOWN)' },
);
export type ConditionLeaf = z.infer<typeof ConditionLeafSchema>;

export type ConditionGroup = { operator: 'AND' | 'OR'; conditions: Array<ConditionLeaf | ConditionGroup> };

/** Nesting of groups is bounded, so a definition cannot be made arbitrarily deep. */
export const MAX_CONDITION_DEPTH = 5;

export function isConditionGroup(c: ConditionLeaf | ConditionGroup): c is ConditionGroup {
  return 'operator' in c;
}

export function conditionDepth(group: ConditionGroup): number {
  return 1 + Math.max(0, ...group.conditions.map((c) => (isConditionGroup(c) ? conditionDepth(c) : 0)));
}
