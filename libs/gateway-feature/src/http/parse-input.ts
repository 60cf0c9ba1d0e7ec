import { Errors, issuesToFields, type InputLocation } from '@mapi/contracts';
import type { z } from 'zod';

/**
 * Validates one part of the request with its contract schema; a 422 with spec-keyed fields otherwise.
 * Only an absent body (no bytes) counts as no body: a JSON `null` is a body, and not an object.
 */
export function parseInput<S extends z.ZodType>(schema: S | undefined, raw: unknown, location: InputLocation): z.infer<S> | undefined {
  if (!schema) return undefined;
  const result = schema.safeParse(raw === undefined && location !== 'body' ? {} : raw);
  if (result.success) return result.data;
  throw Errors.validation(issuesToFields(location, result.error.issues, raw));
}
