import { TrustProxyConfigSchema, trustProxyOption } from './trust-proxy-config';

/** Which hops in front of the gateway are believed: a count of hops, each from a listed address. */
describe('trustProxyOption', () => {
  const trust = (env: Record<string, string>) => trustProxyOption(TrustProxyConfigSchema.parse(env));
  const fn = (env: Record<string, string>) => trust(env) as (address: string, hop: number) => boolean;

  it('trusts one hop from loopback by default (the console server of `npm run up`)', () => {
    const t = fn({});
    expect(t('127.0.0.1', 0)).toBe(true);
    expect(t('::ffff:127.0.0.1', 0)).toBe(true);
    expect(t('::1', 0)).toBe(true);
    expect(t('127.0.0.1', 1)).toBe(false);
    expect(t('203.0.113.7', 0)).toBe(false);
    expect(t('10.0.0.5', 0)).toBe(false);
  });

  it('trusts no hop at 0: the connection is the client', () => {
    expect(trust({ TRUST_PROXY_HOPS: '0' })).toBe(false);
  });

  it('trusts as many hops as configured, each only from a listed address or range', () => {
    const t = fn({ TRUST_PROXY_HOPS: '2', TRUST_PROXY_ADDRESSES: 'uniquelocal, 198.51.100.7, 2001:db8::/32' });
    expect(t('10.1.2.3', 0)).toBe(true);
    expect(t('172.20.0.9', 1)).toBe(true);
    expect(t('198.51.100.7', 0)).toBe(true);
    expect(t('2001:db8::1', 0)).toBe(true);
    expect(t('10.1.2.3', 2)).toBe(false);
    expect(t('198.51.100.8', 0)).toBe(false);
    expect(t('not an address', 0)).toBe(false);
  });

  it.each([
    ['TRUST_PROXY_HOPS', '-1'],
    ['TRUST_PROXY_HOPS', 'true'],
    ['TRUST_PROXY_ADDRESSES', ''],
    ['TRUST_PROXY_ADDRESSES', 'loopback,example.com'],
    ['TRUST_PROXY_ADDRESSES', '10.0.0.0/33'],
  ])('refuses %s=%s at start', (name, value) => {
    const parsed = TrustProxyConfigSchema.safeParse({ [name]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].path).toEqual([name]);
  });
});
