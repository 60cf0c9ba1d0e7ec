import { clearedCookies, readCookie, sessionCookies } from './cookies';

describe('console session cookies', () => {
  it('reads one cookie of a Cookie header, the first of a repeated name', () => {
    expect(readCookie('a=1; mapi_session=abc; mapi_session=zzz', 'mapi_session')).toBe('abc');
    expect(readCookie('mapi_sessionx=1', 'mapi_session')).toBeUndefined();
    expect(readCookie(undefined, 'mapi_session')).toBeUndefined();
  });

  it('sets the session http-only on /v1 and the CSRF token readable, both SameSite=Strict, Secure when asked', () => {
    const [session, csrf] = sessionCookies('tok', 'csrf', new Date(Date.now() + 60_000), { secure: true });
    expect(session).toMatch(/^mapi_session=tok; Path=\/v1; Max-Age=(59|60); SameSite=Strict; HttpOnly; Secure$/);
    expect(csrf).toMatch(/^mapi_csrf=csrf; Path=\/; Max-Age=(59|60); SameSite=Strict; Secure$/);
    expect(sessionCookies('t', 'c', new Date(), { secure: false })[0]).not.toContain('Secure');
    expect(clearedCookies({ secure: true })).toEqual([
      'mapi_session=; Path=/v1; Max-Age=0; SameSite=Strict; HttpOnly; Secure',
      'mapi_csrf=; Path=/; Max-Age=0; SameSite=Strict; Secure',
    ]);
  });
});
