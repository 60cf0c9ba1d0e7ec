import { ErrorCode, type ErrorEnvelope, type ErrorField } from './error-codes';

/**
 * A failure with a place in the envelope. Services throw it; the RPC layer carries it to the
 * gateway, which answers with the same envelope and status.
 */
export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly fields?: Record<string, ErrorField>,
    readonly errorId?: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }

  toEnvelope(): ErrorEnvelope {
    const envelope: ErrorEnvelope = { code: this.code, message: this.message, status: this.status };
    if (this.fields) envelope.fields = this.fields;
    if (this.errorId) envelope.error_id = this.errorId;
    return envelope;
  }

  static fromEnvelope(envelope: ErrorEnvelope): ServiceError {
    return new ServiceError(envelope.code, envelope.status, envelope.message, envelope.fields, envelope.error_id);
  }
}

export const Errors = {
  phoneUnavailable: (message = 'The phone is disconnected or its server is unreachable') => new ServiceError(ErrorCode.ERROR, 400, message),
  unauthorized: (message = 'Invalid or missing bearer token') => new ServiceError(ErrorCode.UNAUTHORIZED_ERROR, 401, message),
  validation: (fields: Record<string, ErrorField>, message = 'Invalid request') =>
    new ServiceError(ErrorCode.VALIDATION_ERROR, 422, message, fields),
  notFound: (message: string) => new ServiceError(ErrorCode.NOT_FOUND_ERROR, 404, message),
  rateLimited: (limit: number) =>
    new ServiceError(ErrorCode.RATE_LIMIT_ERROR, 429, `Too many requests: the limit is ${limit} requests per second`),
  unknown: (errorId: string) =>
    new ServiceError(ErrorCode.UNKNOWN_ERROR, 500, `Internal server error (error id ${errorId})`, undefined, errorId),
  unavailable: (message: string) => new ServiceError(ErrorCode.SERVICE_UNAVAILABLE_ERROR, 503, message),
  timeout: (message: string) => new ServiceError(ErrorCode.TIMEOUT_ERROR, 504, message),
};
