import { Errors, issuesToFields, type InputLocation } from '@mapi/contracts';
import type { z } from 'zod';

/**
 * Validates one part of the request with its contract schema; a 422 with spec-keyed fields otherwise.
 * Only an absent body (no bytes) counts as no body: a JSON `null` is a body, and not an object.
 */
export function parseInput<S extends z.ZodType>(schema: S | undefined, raw: unknown, location: InputLocation): z.infer<S> | undefined {
  if (!schema) return undefined;
  const nul = nulPaths(raw);
  if (nul.length)
    throw Errors.validation(
      Object.fromEntries(
        nul.map((path) => [fieldKey(location, path), { message: NUL_MESSAGE, ...(location === 'body' ? {} : { value: null }) }]),
      ),
    );
  const result = schema.safeParse(raw === undefined && location !== 'body' ? {} : raw);
  if (result.success) return result.data;
  throw Errors.validation(issuesToFields(location, result.error.issues, raw));
}

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/**
 * Where a string holds U+0000: Postgres text cannot store it, so every service would fail on it with a
 * 500; it is refused here, once for all routes, as a 422 naming the field.
 */
function nulPaths(value: unknown, path: string[] = [], out: string[][] = []): string[][] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push(path);
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key.includes('\u0000')) out.push([...path, key]);
      nulPaths(v, [...path, key], out);
    }
  }
  return out;
}

const fieldKey = (location: InputLocation, path: string[]) =>
  location === 'body' ? (path.length ? `body.${path.join('.')}` : 'body') : (path[0] ?? location);
