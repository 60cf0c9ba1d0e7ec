import { z } from 'zod';

/**
 * Kinds of value a custom property takes. The hosted service documents dropdown, text and date;
 * number and boolean are this API's additions (docs/services/inbox.md).
 */
export const PROPERTY_VALUE_TYPES = ['text', 'number', 'boolean', 'date', 'dropdown'] as const;
export type PropertyValueType = (typeof PROPERTY_VALUE_TYPES)[number];
export const PropertyValueTypeSchema = z.enum(PROPERTY_VALUE_TYPES, {
  error: `property_value_type must be one of ${PROPERTY_VALUE_TYPES.join(', ')}`,
});

/** Most options a dropdown lists; longest option. */
export const MAX_PROPERTY_OPTIONS = 200;
export const MAX_PROPERTY_OPTION_LENGTH = 200;

/**
 * A dropdown's options as given: a comma-separated string (the hosted object's form) or an array of
 * strings. Read with propertyOptions; kept as given in the request (the service parses it again).
 */
export const PropertyOptionsSchema = z.union(
  [
    z.string().max(20_000, 'property_value is too long'),
    z
      .array(
        z
          .string()
          .max(MAX_PROPERTY_OPTION_LENGTH, `an option is at most ${MAX_PROPERTY_OPTION_LENGTH} characters`)
          .refine((o) => !o.includes(','), { message: 'an option must not contain a comma' }),
      )
      .max(MAX_PROPERTY_OPTIONS, `at most ${MAX_PROPERTY_OPTIONS} options`),
  ],
  { error: 'property_value must be a comma-separated string or an array of strings' },
);

/** The options of a dropdown: trimmed, without empties or repeats (repeats compared case-insensitively), in order. */
export function propertyOptions(value: string | string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of typeof value === 'string' ? value.split(',') : value) {
    const option = raw.trim();
    if (!option || seen.has(option.toLowerCase())) continue;
    seen.add(option.toLowerCase());
    out.push(option);
  }
  return out;
}

/** A property's name: trimmed, 1–100 characters; unique per organization regardless of case. */
export const PropertyNameSchema = z
  .string({ error: 'property_name must be a string' })
  .trim()
  .min(1, 'property_name must not be empty')
  .max(100, 'property_name is at most 100 characters');

/**
 * A custom property definition: the `tbl_custom_properties` row of @periskope/types (`CustomPropertyType`).
 * `property_value` is a dropdown's options, comma-separated; null for the other types.
 */
export const CustomPropertySchema = z.object({
  property_id: z.uuid(),
  org_id: z.uuid(),
  property_name: z.string(),
  property_value_type: z.string(),
  property_value: z.string().nullable(),
  property_metadata: z.unknown().nullable(),
  is_required: z.boolean(),
  /** What the property is set on: chat or ticket. */
  type: z.string(),
  /** The API token that created it. */
  created_by: z.string().nullable(),
  created_at: z.string(),
});
export type CustomProperty = z.infer<typeof CustomPropertySchema>;

/** `property_id`: the UUID the property was created with. */
export const PropertyIdParams = z.object({ property_id: z.uuid({ error: 'property_id must be a UUID' }) });
