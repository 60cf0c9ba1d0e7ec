import { API_TOKEN_PREFIX, bearerToken, generateApiToken, hashApiToken } from './api-token';

describe('api tokens', () => {
  it('generates distinct prefixed tokens whose stored hash is their SHA-256', () => {
    const a = generateApiToken();
    const b = generateApiToken();
    expect(a.token).not.toEqual(b.token);
    expect(a.token.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(a.token.length).toBeGreaterThanOrEqual(API_TOKEN_PREFIX.length + 43);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).toEqual(hashApiToken(a.token));
    expect(a.hash).not.toContain(a.token);
    expect(a.token.startsWith(a.display_prefix)).toBe(true);
  });

  it('reads only well-formed bearer headers', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});
