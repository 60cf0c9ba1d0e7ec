import type { z } from 'zod';

/**
 * A body refinement for the PATCH routes that need at least one of some fields: when none is given,
 * one 422 issue per field (`body.<field>`), each naming them all.
 */
export function atLeastOneOf<K extends string>(keys: readonly K[]) {
  return (body: Partial<Record<K, unknown>>, ctx: z.RefinementCtx): void => {
    if (keys.some((k) => body[k] !== undefined)) return;
    for (const k of keys)
      ctx.addIssue({ code: 'custom', path: [k], message: `At least one of ${keys.join(', ')} is required: ${k} is missing` });
  };
}
