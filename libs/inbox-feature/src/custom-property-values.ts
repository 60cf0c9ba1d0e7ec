import { Errors, MAX_PROPERTY_OPTIONS, MAX_PROPERTY_OPTION_LENGTH, parseDate, propertyOptions, type ErrorField } from '@mapi/contracts';
import type { CustomPropertyRow } from './repositories/custom-property-repository';

/**
 * A dropdown's options from property_value (comma-separated or an array), checked: at least one, at
 * most MAX_PROPERTY_OPTIONS, each at most MAX_PROPERTY_OPTION_LENGTH characters; 422 on body.property_value.
 */
export function readOptions(value: string | string[]): string[] {
  const options = propertyOptions(value);
  const problem = !options.length
    ? 'a dropdown needs at least one option'
    : options.length > MAX_PROPERTY_OPTIONS
      ? `a dropdown has at most ${MAX_PROPERTY_OPTIONS} options`
      : options.some((o) => o.length > MAX_PROPERTY_OPTION_LENGTH)
        ? `an option is at most ${MAX_PROPERTY_OPTION_LENGTH} characters`
        : null;
  if (problem) throw Errors.validation({ 'body.property_value': { message: problem } });
  return options;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** One value read as its property's type: the text to keep, or why it is not one. */
export function readValue(
  p: Pick<CustomPropertyRow, 'property_value_type' | 'property_value'>,
  raw: string,
): { value: string } | { problem: string } {
  const v = raw.trim();
  switch (p.property_value_type) {
    case 'number':
      return NUMBER.test(v) && Number.isFinite(Number(v)) ? { value: v } : { problem: 'must be a number' };
    case 'boolean':
      return /^(true|false)$/i.test(v) ? { value: v.toLowerCase() } : { problem: 'must be true or false' };
    case 'date': {
      const at = parseDate(v);
      if (!at) return { problem: 'must be a date, e.g. 2025-04-09 or 2025-04-09T18:29:59Z' };
      return { value: DATE_ONLY.test(v) ? v : at.toISOString() };
    }
    case 'dropdown': {
      const option = p.property_value.find((o) => o.toLowerCase() === v.toLowerCase());
      return option ? { value: option } : { problem: `must be one of ${p.property_value.join(', ')}` };
    }
    default:
      return { value: raw };
  }
}

/**
 * The values a PATCH /chats/{chat_id} gives, checked against the organization's definitions and keyed
 * by property_id (null: clear). A key names a property by id, else by name regardless of case. An
 * unknown property, a value that is not of the property's type (or not among a dropdown's options),
 * clearing a required property, or two keys naming one property: 422 with one field per key,
 * `body.custom_properties.<key>`.
 */
export function checkPropertyValues(
  definitions: readonly CustomPropertyRow[],
  values: Readonly<Record<string, string | null>>,
): Record<string, string | null> {
  const byId = new Map(definitions.map((d) => [d.property_id, d]));
  const byName = new Map(definitions.map((d) => [d.property_name.toLowerCase(), d]));
  const out: Record<string, string | null> = {};
  const fields: Record<string, ErrorField> = {};
  for (const [key, raw] of Object.entries(values)) {
    const field = `body.custom_properties.${key}`;
    const def = byId.get(key) ?? byName.get(key.trim().toLowerCase());
    if (!def) {
      fields[field] = { message: `the organization has no custom property named ${JSON.stringify(key)} (or of that id)` };
      continue;
    }
    if (def.property_id in out) {
      fields[field] = { message: `${def.property_name} is given twice (by name and by id)` };
      continue;
    }
    if (raw === null || raw.trim() === '') {
      if (def.is_required) fields[field] = { message: `${def.property_name} is required: its value cannot be cleared` };
      else out[def.property_id] = null;
      continue;
    }
    const read = readValue(def, raw);
    if ('problem' in read) fields[field] = { message: `${def.property_name} ${read.problem}`, value: raw };
    else out[def.property_id] = read.value;
  }
  if (Object.keys(fields).length) throw Errors.validation(fields, 'Invalid custom property values');
  return out;
}
