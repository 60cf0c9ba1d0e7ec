import { withAdvice } from './error-advice';

/** An answer other than 2xx, with the API's error envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, { message: string }>,
  ) {
    super(message);
  }
}

const csrfToken = (): string => /(?:^|;\s*)mapi_csrf=([^;]+)/.exec(document.cookie)?.[1] ?? '';

/** Called on a 401 outside /auth/*: the app checks whether the session is gone (then back to sign-in). */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (fn: () => void) => {
  onSignedOut = fn;
};

/**
 * One call to /v1 on this origin. The session cookie goes along by itself; changes carry the CSRF
 * token read from the mapi_csrf cookie. Errors are the API's envelope as an ApiError.
 */
export async function api<T = unknown>(method: string, path: string, options: { body?: unknown; phone?: string | null } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken();
  if (options.phone) headers['x-phone'] = options.phone;
  let res: Response;
  try {
    res = await fetch(`/v1${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached; check the connection and retry');
  }
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const envelope = (body ?? {}) as { code?: string; message?: string; fields?: Record<string, { message: string }> };
    if (res.status === 401 && !path.startsWith('/auth/')) onSignedOut();
    throw new ApiError(res.status, envelope.code ?? 'ERROR', envelope.message ?? `Request failed (${res.status})`, envelope.fields);
  }
  return body as T;
}

/** An error for the page: the API's message, and for its refusals and failures what to do (error-advice.ts). */
export const errorText = (error: unknown): string =>
  error instanceof ApiError
    ? withAdvice(error.message, error.status, error.code, error.fields)
    : error instanceof Error
      ? error.message
      : String(error);

/**
 * A GET of a route's CSV answer (`Accept: text/csv`, the analytics routes): its text and the file name
 * it names. Refusals are the API's JSON envelope, thrown as an ApiError as by `api`.
 */
export async function apiCsv(path: string): Promise<{ text: string; filename: string | null }> {
  let res: Response;
  try {
    res = await fetch(`/v1${path}`, { headers: { accept: 'text/csv' }, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached; check the connection and retry');
  }
  const text = await res.text();
  if (!res.ok) {
    let envelope: { code?: string; message?: string; fields?: Record<string, { message: string }> } = {};
    try {
      envelope = JSON.parse(text);
    } catch {
      /* not the envelope */
    }
    if (res.status === 401) onSignedOut();
    throw new ApiError(res.status, envelope.code ?? 'ERROR', envelope.message ?? `Request failed (${res.status})`, envelope.fields);
  }
  return { text, filename: /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? null };
}
