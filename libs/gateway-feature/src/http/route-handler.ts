import { csvText, type RouteContract, type RequestContext } from '@mapi/contracts';
import { outageLog, type Logger, type NatsRpcClient } from '@mapi/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../auth/authenticator';
import type { Principal } from '../auth/principal';
import type { PhoneResolver } from '../phones/phone-resolver';
import type { RateLimiter } from '../rate-limit/rate-limiter';
import type { SignInThrottle } from '../rate-limit/sign-in-throttle';
import type { CookieOptions } from '../auth/cookies';
import { CSRF_HEADER } from '../auth/cookies';
import { checkRole, clearSession, issueSession, recordAudit } from './console-hooks';
import { ErrorCode, Errors, ServiceError } from '@mapi/contracts';
import { readMultipartBody } from '../upload/multipart-body';
import { toServiceError } from './error-mapping';
import { parseInput } from './parse-input';
import { preferredEncoding } from './compression';
import { partsStream } from './reply-parts';

export interface RouteHandlerDeps {
  auth: Authenticator;
  phones: PhoneResolver;
  rateLimiter: RateLimiter;
  rpc: NatsRpcClient;
  logger: Logger;
  defaultRatePerSecond: number;
  routeRates: Record<string, number>;
  /** Largest file of an upload route (UPLOAD_MAX_FILE_BYTES). */
  maxUploadFileBytes: number;
  /** Retry-After (seconds) on a 503: no instance of the service answered within RPC_UNAVAILABLE_RETRY_MS. */
  unavailableRetryAfterSeconds: number;
  /** Failed console sign-ins per account and per address (routes with `throttle: 'sign-in'`). */
  signInThrottle: SignInThrottle;
  /** Attributes of the console session cookies. */
  cookies: CookieOptions;
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The gateway's pipeline for one contract route: authenticate, rate-limit, validate, resolve the
 * phone, then forward `{ctx, params, query, body}` over NATS and pass the service's JSON through.
 */
export function createRouteHandler(route: RouteContract, deps: RouteHandlerDeps) {
  const routeKey = `${route.method} ${route.path}`;
  const routeRate = deps.routeRates[routeKey];

  const applyRateLimit = async (principal: Principal, reply: FastifyReply) => {
    const limit = routeRate ?? principal.rate_limit_per_second ?? deps.defaultRatePerSecond;
    let decision;
    try {
      decision = await deps.rateLimiter.hit(principal.token_id, routeRate ? routeKey : 'all', limit);
    } catch (err) {
      // Fail open: a Redis outage must not take the API down; readiness reports it.
      outageLog(deps.logger).warn('rate limiter unavailable; request allowed', { err });
      reply.header('X-RateLimit-Limit', limit);
      return;
    }
    reply.header('X-RateLimit-Limit', decision.limit);
    reply.header('X-RateLimit-Remaining', decision.remaining);
    reply.header('X-RateLimit-Reset', decision.reset);
    if (!decision.allowed) {
      reply.header('Retry-After', Math.max(1, decision.reset - Math.floor(Date.now() / 1000)));
      throw Errors.rateLimited(limit);
    }
  };

  /** The JSON body as parsed, or a multipart body read into the same shape (upload routes only; else 415). */
  const rawBody = async (req: FastifyRequest): Promise<unknown> => {
    if (!req.isMultipart?.()) return req.body;
    if (!route.upload) {
      throw new ServiceError(
        ErrorCode.UNSUPPORTED_MEDIA_TYPE_ERROR,
        415,
        'Unsupported Content-Type: this route takes application/json only',
      );
    }
    return readMultipartBody(req, route.upload, deps.maxUploadFileBytes);
  };

  /** The caller: nobody on a public route (sign-in), else a bearer token or a console session. */
  const authenticate = async (req: FastifyRequest): Promise<Principal | null> => {
    if (route.auth === 'public') return null;
    return deps.auth.authenticate(header(req, 'authorization'), {
      cookie: header(req, 'cookie'),
      method: req.method,
      csrf: header(req, CSRF_HEADER),
      mode: route.auth === 'session' ? 'session' : 'api',
    });
  };

  return async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      const principal = await authenticate(req);
      if (principal) {
        reply.header('x-service-org-id', principal.org_id);
        await applyRateLimit(principal, reply);
        checkRole(route, principal);
      }
      const params = parseInput(route.params, req.params, 'params');
      const query = parseInput(route.query, req.query, 'query');
      const body = parseInput(route.body, await rawBody(req), 'body');
      // counted before the service checks the password (given back if it succeeds), so a burst of parallel guesses cannot all pass
      const attempt =
        route.throttle === 'sign-in' ? await deps.signInThrottle.attempt(String((body as { email: string }).email), req.ip) : null;
      const phone =
        route.phone === 'none' || !principal
          ? null
          : await deps.phones.resolve(principal, header(req, 'x-phone'), route.phone === 'required');
      if (phone) reply.header('x-service-phone-id', phone.phone_id);
      const ctx: RequestContext | undefined = principal
        ? {
            org_id: principal.org_id,
            token_id: principal.token_id,
            phone_scope: principal.phone_scope,
            phone,
            member: principal.member ?? null,
          }
        : undefined;
      const headers = route.headers
        ? Object.fromEntries(route.headers.flatMap((n) => (header(req, n) === undefined ? [] : [[n, header(req, n)]])))
        : undefined;
      // a route with a CSV form answers it when asked (Accept: text/csv): the JSON answer is turned into the table here
      const csv = route.csv && wantsCsv(header(req, 'accept')) ? route.csv : undefined;
      // a JSON answer passed on as it is may come back compressed by the service (large pages: no plain bytes on the hop)
      const acceptEncoding =
        route.response && route.session !== 'issue' && !csv && !route.text
          ? preferredEncoding(header(req, 'accept-encoding'), header(req, 'x-no-compression'))
          : undefined;
      // a route that checks a signature over the body gets its exact bytes too
      const rawBodyBytes = route.rawBody ? ((req as { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0)).toString('base64') : undefined;
      const raw = await deps.rpc.callRaw(
        route.rpc,
        { ctx, params, query, body, headers, ...(route.rawBody ? { raw_body: rawBodyBytes } : {}) },
        { requestId: String(req.id), timeoutMs: route.upload?.timeoutMs, acceptEncoding },
      );
      const status = raw.httpStatus ?? route.successStatus;
      if (attempt && status < 300) await attempt.succeeded();
      reply.status(status);
      if (principal && status < 300) {
        if (route.session === 'clear') clearSession(reply, principal, deps.auth, deps.cookies);
        if (route.forgetToken) deps.auth.forgetToken(String((params as Record<string, unknown>)[route.forgetToken]));
        recordAudit(route, principal, params as Record<string, unknown> | undefined, phone?.phone_id, deps.rpc, deps.logger);
      }
      if (status === 204 || (!route.response && raw.httpStatus === undefined)) return reply.send();
      if (csv && status < 300) {
        const text = csvText(csv.table(JSON.parse(raw.body.toString('utf8'))));
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${csv.filename}"`)
          .header('vary', 'accept')
          .send(text);
      }
      if (route.text && status < 300) return reply.type('text/plain; charset=utf-8').send(String(JSON.parse(raw.body.toString('utf8'))));
      if (raw.encoding) reply.header('content-encoding', raw.encoding).header('vary', 'accept-encoding');
      reply.type('application/json; charset=utf-8');
      if (route.session === 'issue' && status < 300) return reply.send(issueSession(raw.body, reply, deps.cookies));
      // a chunked reply (a large page) goes out as its chunks, with its length: not joined into one buffer first
      if (raw.parts.length > 1) return reply.header('content-length', raw.byteLength).send(partsStream(raw.parts));
      return reply.send(raw.body);
    } catch (error) {
      const serviceError = toServiceError(error, deps.logger);
      if (serviceError.status === 503) reply.header('Retry-After', deps.unavailableRetryAfterSeconds);
      const retryAfter = (error as { retryAfter?: number }).retryAfter;
      if (retryAfter) reply.header('Retry-After', retryAfter);
      return reply.status(serviceError.status).type('application/json; charset=utf-8').send(serviceError.toEnvelope());
    }
  };
}

/** Whether an Accept header asks for CSV (text/csv listed with a non-zero quality). */
export function wantsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    if (type.trim() !== 'text/csv') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
