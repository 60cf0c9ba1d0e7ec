import { z } from 'zod';

/** Shortest and longest lifetime of a private link (spec 4.8): requests outside are clamped. */
export const MIN_LINK_EXPIRY_SECONDS = 60;
export const MAX_LINK_EXPIRY_SECONDS = 604_800;

export const MediaAccessSchema = z.enum(['private', 'public'], { error: "access must be 'private' or 'public'" });
export type MediaAccess = z.infer<typeof MediaAccessSchema>;

export const ExpiresInSecondsSchema = z
  .number({ error: 'expires_in_seconds must be a number' })
  .describe(`Lifetime of a private link; clamped to ${MIN_LINK_EXPIRY_SECONDS}..${MAX_LINK_EXPIRY_SECONDS}. Only with private access.`);

export const EXPIRES_WITH_PUBLIC_MESSAGE = 'expires_in_seconds is only valid with private access';

/** The `access` / `expires_in_seconds` pair shared by 4.8 and 4.9: expiry with public is a 422. */
export const accessFields = {
  access: MediaAccessSchema.optional(),
  expires_in_seconds: ExpiresInSecondsSchema.optional(),
};

export function rejectExpiryWithPublic(body: { access?: MediaAccess; expires_in_seconds?: number }, ctx: z.RefinementCtx): void {
  if (body.access === 'public' && body.expires_in_seconds !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['expires_in_seconds'], message: EXPIRES_WITH_PUBLIC_MESSAGE });
  }
}

/** The body of a failed migration (spec 4.8): a sentence, not the error envelope. */
export const MediaErrorBodySchema = z.object({ error: z.string() });
export type MediaErrorBody = z.infer<typeof MediaErrorBodySchema>;
