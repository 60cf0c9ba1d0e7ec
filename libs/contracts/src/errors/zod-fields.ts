import type { z } from 'zod';
import type { ErrorField } from './error-codes';

export type InputLocation = 'body' | 'query' | 'params' | 'headers';

/**
 * Maps zod issues to the envelope's `fields` (spec part 7): body fields keyed `body.<path>`;
 * query, path and header parameters keyed by their bare name and carrying the `value` received.
 */
export function issuesToFields(location: InputLocation, issues: readonly z.core.$ZodIssue[], raw: unknown): Record<string, ErrorField> {
  const fields: Record<string, ErrorField> = {};
  for (const issue of issues) {
    const path = issue.path.map(String);
    if (location === 'body') {
      const key = path.length ? `body.${path.join('.')}` : 'body';
      fields[key] ??= { message: issue.message };
      continue;
    }
    const name = path[0] ?? location;
    const value = raw && typeof raw === 'object' ? (raw as Record<string, unknown>)[name] : undefined;
    fields[name] ??= { message: issue.message, value: parseScalar(value) };
  }
  return fields;
}

/** Query and header values arrive as strings: echo a number as a number, anything else as given. */
function parseScalar(value: unknown): unknown {
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return value === undefined ? null : value;
}
