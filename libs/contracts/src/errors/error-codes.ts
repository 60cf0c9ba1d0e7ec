import { z } from 'zod';

/**
 * Error codes of the envelope (spec part 7). The first five are the spec's; the rest cover failures
 * the spec does not list (unknown route, body too large, ...) and are documented in docs/decisions.md.
 */
export const ErrorCode = {
  ERROR: 'ERROR',
  UNAUTHORIZED_ERROR: 'UNAUTHORIZED_ERROR',
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  RATE_LIMIT_ERROR: 'RATE_LIMIT_ERROR',
  UNKNOWN_ERROR: 'UNKNOWN_ERROR',
  NOT_FOUND_ERROR: 'NOT_FOUND_ERROR',
  FORBIDDEN_ERROR: 'FORBIDDEN_ERROR',
  RANGE_NOT_SATISFIABLE_ERROR: 'RANGE_NOT_SATISFIABLE_ERROR',
  PAYLOAD_TOO_LARGE_ERROR: 'PAYLOAD_TOO_LARGE_ERROR',
  UNSUPPORTED_MEDIA_TYPE_ERROR: 'UNSUPPORTED_MEDIA_TYPE_ERROR',
  SERVICE_UNAVAILABLE_ERROR: 'SERVICE_UNAVAILABLE_ERROR',
  TIMEOUT_ERROR: 'TIMEOUT_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ErrorFieldSchema = z.object({
  message: z.string(),
  value: z.unknown().optional(),
});
export type ErrorField = z.infer<typeof ErrorFieldSchema>;

export const ErrorEnvelopeSchema = z.object({
  code: z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  status: z.number().int(),
  fields: z.record(z.string(), ErrorFieldSchema).optional(),
  /** Only on 500 UNKNOWN_ERROR: the id under which the failure was logged. */
  error_id: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
