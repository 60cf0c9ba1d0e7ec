import { randomUUID } from 'node:crypto';
import { Errors, ServiceError } from '@mapi/contracts';
import { DEPENDENCY_UNAVAILABLE_MESSAGE, isDependencyUnavailable, outageLog, type Logger } from '@mapi/platform';

interface FrameworkError {
  statusCode?: number;
  status?: number;
  code?: string;
  message?: string;
  getStatus?: () => number;
}

/**
 * Any failure → the envelope. Framework errors (unknown route, body too large, malformed JSON,
 * unsupported content type) get their own codes; a database that cannot serve now is a 503 (with
 * Retry-After); anything else unexpected is a 500 UNKNOWN_ERROR whose id is logged with the error. No stack trace or internal message leaves the service.
 */
export function toServiceError(error: unknown, logger: Logger): ServiceError {
  if (error instanceof ServiceError) return error;
  const e = (error ?? {}) as FrameworkError;
  const status = e.getStatus?.() ?? e.statusCode ?? e.status;
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
    return new ServiceError('PAYLOAD_TOO_LARGE_ERROR', 413, 'Request body is too large');
  }
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
    return new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE_ERROR',
      415,
      'Unsupported Content-Type: send application/json (or multipart/form-data where a route takes a file)',
    );
  }
  if (e.code?.startsWith('FST_ERR_CTP_') || e.code === 'MALFORMED_JSON') {
    return Errors.validation({ body: { message: 'Request body is not valid JSON' } }, 'Malformed JSON body');
  }
  // The router's own refusals, before any route runs: a path parameter longer than the router takes
  // (Fastify's maxParamLength) or a malformed percent-encoding in the path.
  if (e.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return Errors.validation({ path: { message: 'A path parameter is too long' } }, 'Path parameter too long');
  }
  if (e.code === 'FST_ERR_BAD_URL') {
    return Errors.validation({ path: { message: 'The path is not a valid URL path (malformed percent-encoding)' } }, 'Malformed URL path');
  }
  if (status === 404) return Errors.notFound('Route not found');
  const errorId = randomUUID();
  if (isDependencyUnavailable(error)) {
    // The gateway's own reads (tokens, sessions) when its database cannot serve: 503 with Retry-After, not a bug.
    outageLog(logger).warn('database unavailable', { err: error });
    return Errors.unavailable(DEPENDENCY_UNAVAILABLE_MESSAGE);
  }
  logger.error({ err: error, error_id: errorId }, 'unhandled error');
  return Errors.unknown(errorId);
}
