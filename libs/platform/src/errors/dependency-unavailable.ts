/**
 * Failures that say a service's database (or Redis) cannot serve right now — unreachable, restarting, out of
 * connections, its pool exhausted — rather than that the request or the code is wrong. They are
 * answered 503 SERVICE_UNAVAILABLE_ERROR (the gateway adds Retry-After) instead of 500: the client
 * should retry, and an operator sees a capacity or availability problem, not a bug.
 *
 * Read by shape, not by class, so it sees Prisma's errors (its own codes, a raw query's SQLSTATE, the
 * pg adapter's error kinds), the pg driver's and Node's socket errors alike, through `cause` chains.
 */
// too_many_connections, configuration_limit_exceeded, admin/crash shutdown, cannot_connect_now, connection_exception family
const SQLSTATES = new Set(['53300', '53400', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
// can't reach, timed out, server closed the connection, pool timeout, too many connections
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
const ADAPTER_KINDS = new Set(['TooManyConnections', 'DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
const MESSAGES =
  /Connection terminated|is not queryable|timeout exceeded when trying to connect|Unable to start a transaction in the given time|Timed out fetching a new connection from the connection pool/i;
// ioredis refusing at once on a client made to fail fast (no offline queue, no retries): Redis is away
const REDIS_MESSAGES =
  /^Stream isn't writeable and enableOfflineQueue options is false$|^Reached the max retries per request limit|^Connection is closed\.$/;

interface ErrorShape {
  code?: unknown;
  message?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  meta?: { code?: unknown; driverAdapterError?: { cause?: ErrorShape } };
  cause?: unknown;
}

export type UnavailableDependency = 'database' | 'redis';

/** Which store the failure says is away, or null when it is not such a failure. */
export function unavailableDependency(error: unknown): UnavailableDependency | null {
  if (isRedisUnavailable(error)) return 'redis';
  return isDependencyUnavailable(error) ? 'database' : null;
}

function isRedisUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as ErrorShape;
  return (typeof e.message === 'string' && REDIS_MESSAGES.test(e.message)) || isRedisUnavailable(e.cause, depth + 1);
}

export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as ErrorShape;
  if (depth === 0 && isRedisUnavailable(e)) return true;
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && (PRISMA_CODES.has(code) || SQLSTATES.has(code) || SOCKET_CODES.has(code))) return true;
  if (code === 'P2010' && SQLSTATES.has(String(e.meta?.code))) return true; // a raw query's SQLSTATE
  if (typeof e.kind === 'string' && ADAPTER_KINDS.has(e.kind)) return true;
  if (e.originalCode !== undefined && SQLSTATES.has(String(e.originalCode))) return true;
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  return isDependencyUnavailable(e.meta?.driverAdapterError?.cause, depth + 1) || isDependencyUnavailable(e.cause, depth + 1);
}

export const DEPENDENCY_UNAVAILABLE_MESSAGE =
  'Temporarily unavailable: the service cannot reach its database (unreachable, restarting or out of connections); retry shortly';

export const UNAVAILABLE_MESSAGES: Record<UnavailableDependency, string> = {
  database: DEPENDENCY_UNAVAILABLE_MESSAGE,
  redis: 'Temporarily unavailable: the service cannot reach its Redis (unreachable or restarting); retry shortly',
};
