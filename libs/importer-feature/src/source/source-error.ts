/**
 * Why the source could not be read: each code is what the CLI and the console show, with a message
 * saying what to check. `retryable` errors are worth a later rerun (the run resumes at its checkpoint).
 */
export type SourceErrorCode =
  | 'SOURCE_UNREACHABLE'
  | 'SOURCE_UNAUTHORIZED'
  | 'SOURCE_FORBIDDEN'
  | 'SOURCE_NOT_HOSTED_API'
  | 'SOURCE_BAD_RESPONSE'
  | 'SOURCE_UNAVAILABLE'
  | 'SOURCE_ADDRESS_BLOCKED';

export class SourceError extends Error {
  constructor(
    readonly code: SourceErrorCode,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}
