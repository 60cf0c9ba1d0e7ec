import { Errors, issuesToFields, type InputLocation } from '@mapi/contracts';
import type { z } from 'zod';

/** Validates one part of the request with its contract schema; a 422 with spec-keyed fields otherwise. */
export function parseInput<S extends z.ZodType>(schema: S | undefined, raw: unknown, location: InputLocation): z.infer<S> | undefined {
  if (!schema) return undefined;
  const result = schema.safeParse(raw ?? (location === 'body' ? undefined : {}));
  if (result.success) return result.data;
  throw Errors.validation(issuesToFields(location, result.error.issues, raw));
}
