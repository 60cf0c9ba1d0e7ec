import type { z } from 'zod';
import type { RpcContract } from '../rpc/define-rpc';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * An HTTP route of the public API and the RPC that serves it. The gateway validates params, query
 * and body with these schemas, resolves the phone as `phone` says, and forwards
 * `{ ctx, params, query, body }` to `rpc`. The OpenAPI document is generated from the same objects.
 */
export interface RouteContract {
  operationId: string;
  method: HttpMethod;
  /** Path under /v1 with `{name}` parameters, as in the spec. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** How `x-phone` is treated: ignored, optional (narrows to that phone) or required. */
  phone: 'none' | 'optional' | 'required';
  rpc: RpcContract;
  successStatus: number;
  /** Response body schema; undefined when the success answer has no content. */
  response?: z.ZodType;
  /**
   * Request headers the service needs (lower-case names, e.g. `idempotency-key`), forwarded as
   * `headers: { name: value }` in the RPC payload; absent ones are left out.
   */
  headers?: readonly string[];
  /**
   * Failure bodies other than the error envelope that the service answers, by status (spec 7: media
   * migration answers `{ error }`). The OpenAPI document lists them beside (or instead of) the envelope.
   */
  errorBodies?: Readonly<Record<number, { description: string; schema: z.ZodType }>>;
  /** Routes that take a file: multipart/form-data accepted besides JSON, larger bodies, a longer timeout. */
  upload?: RouteUpload;
  /**
   * Who may call (docs/services/members.md): `api` (the default) a bearer token or a console session
   * cookie (with its CSRF header on state-changing methods); `public` nobody needs to be signed in
   * (sign-in, accepting an invitation); `session` a console session only (sign-out, me).
   */
  auth?: 'api' | 'public' | 'session';
  /** The least member role a console session needs; bearer tokens pass (owners and admins make them). */
  role?: 'admin' | 'owner';
  /**
   * The gateway's part in console sessions: `issue` takes `session_token` out of the service's answer
   * and sets it as the http-only session cookie (with the CSRF cookie); `clear` clears both cookies.
   */
  session?: 'issue' | 'clear';
  /** Failed answers (401) counted per account (`body.email`) and per client address; 429 past the limits. */
  throttle?: 'sign-in';
  /**
   * Recorded in the organization's audit trail (members.v1.audit.record) after a 2xx answer: the
   * action, and what names its target: `x-phone` (the resolved phone's id) or a path parameter's name.
   */
  audit?: { action: string; target?: string };
  /**
   * The path parameter naming an API token this route revoked: after a 2xx the gateway forgets that
   * token's cached principal at once (the other replicas within AUTH_CACHE_TTL_MS).
   */
  forgetToken?: string;
  /**
   * The route also answers CSV (`Accept: text/csv`): the gateway turns the service's JSON answer into
   * this table (header row first) and sends it as `text/csv` with `filename` as the attachment's name.
   * Failures stay the JSON envelope. Analytics routes (docs/services/analytics.md, "CSV").
   */
  csv?: { filename: string; table: (answer: unknown) => CsvCell[][] };
  /** The service answers a JSON string that the gateway sends as `text/plain` (Meta's webhook handshake). */
  text?: boolean;
  /**
   * The service needs the body's exact bytes (a signature over them, e.g. Meta's X-Hub-Signature-256):
   * forwarded base64 as `raw_body` beside the parsed body.
   */
  rawBody?: boolean;
}

/** A CSV cell: text, a number, or empty (null). */
export type CsvCell = string | number | null;

/**
 * How the gateway takes a file on a route. A multipart request's file part (named `<fileField>`,
 * `<fileField>.file`, `<fileField>[file]` or `file`) becomes `body[fileField] = { filename, mimetype,
 * file: <base64> }`, so the service sees the same body as for JSON with an inline `file`; text parts
 * become body fields (`a.b` / `a[b]` nest), those in `booleanFields` read as booleans. The file's
 * size limit (413) is the gateway's UPLOAD_MAX_FILE_BYTES; JSON bodies may be as large as that file in base64.
 */
export interface RouteUpload {
  fileField: string;
  booleanFields?: readonly string[];
  /** RPC timeout of the route (a large file takes longer to read than the default allows). */
  timeoutMs?: number;
}

export function defineRoute(route: RouteContract): RouteContract {
  return route;
}

/** `/chats/{chat_id}/messages` → `/chats/:chat_id/messages` for the HTTP router. */
export function toRouterPath(path: string): string {
  return path.replace(/\{([a-zA-Z_]+)\}/g, ':$1');
}
