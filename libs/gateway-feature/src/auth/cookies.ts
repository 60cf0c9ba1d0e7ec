/** The console session's cookies (docs/services/members.md, "Sessions"). */
export const SESSION_COOKIE = 'mapi_session';
export const CSRF_COOKIE = 'mapi_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** `name=value` pairs of a Cookie header; the first of a repeated name wins, values are not decoded. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface CookieOptions {
  secure: boolean;
}

const attributes = (path: string, maxAge: number, httpOnly: boolean, { secure }: CookieOptions) =>
  `; Path=${path}; Max-Age=${maxAge}; SameSite=Strict${httpOnly ? '; HttpOnly' : ''}${secure ? '; Secure' : ''}`;

/**
 * The session token, http-only and only sent to the API (Path=/v1); the CSRF token readable by the
 * console's script (Path=/), which sends it back as x-csrf-token. Both SameSite=Strict.
 */
export function sessionCookies(sessionToken: string, csrfToken: string, expiresAt: Date, options: CookieOptions): string[] {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return [
    `${SESSION_COOKIE}=${sessionToken}${attributes('/v1', maxAge, true, options)}`,
    `${CSRF_COOKIE}=${csrfToken}${attributes('/', maxAge, false, options)}`,
  ];
}

export function clearedCookies(options: CookieOptions): string[] {
  return [`${SESSION_COOKIE}=${attributes('/v1', 0, true, options)}`, `${CSRF_COOKIE}=${attributes('/', 0, false, options)}`];
}
