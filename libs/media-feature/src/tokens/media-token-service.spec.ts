import { createHmac } from 'node:crypto';
import { MediaTokenError, MediaTokenService } from './media-token-service';
import type { SigningKey } from './signing-keys';

const ORG = '5b0c3f0e-4a47-4c5e-9a57-1f5f0d7a0c11';
const KEY_NEW = { kid: 'new', secret: 'n'.repeat(40) };
const KEY_OLD = { kid: 'old', secret: 'o'.repeat(40) };
const T0 = new Date('2026-06-01T12:00:00Z');

const at = (date: Date, keys: SigningKey[] = [KEY_NEW, KEY_OLD]) => new MediaTokenService(keys, () => date);
const plus = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
const sign = (header: object, payload: object, secret: string) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
};
const claims = (extra: object = {}) => ({
  org: ORG,
  acc: 'private',
  iss: 'mapi-media',
  aud: 'mapi-media-link',
  iat: T0.getTime() / 1000,
  exp: T0.getTime() / 1000 + 600,
  ...extra,
});
const reason = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MediaTokenError) return error.reason;
    throw error;
  }
  return 'accepted';
};

describe('MediaTokenService', () => {
  it('issues HS256 tokens with the current kid that verify to the organization until they expire', async () => {
    const { token, expiresAt } = await at(T0).issue(ORG, 600);
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString())).toEqual({ alg: 'HS256', kid: 'new', typ: 'JWT' });
    expect(expiresAt).toEqual(plus(600));
    await expect(at(plus(599)).verify(token)).resolves.toEqual({ orgId: ORG, access: 'private', expiresAt: plus(600) });
  });

  it('tolerates a few seconds of clock skew, not more', async () => {
    const { token } = await at(T0).issue(ORG, 60);
    expect(await reason(at(plus(63)).verify(token))).toBe('accepted');
    expect(await reason(at(plus(70)).verify(token))).toBe('expired');
  });

  it('verifies tokens of an older key still listed, and refuses them once the key is gone', async () => {
    const { token } = await at(T0, [KEY_OLD]).issue(ORG, 600);
    expect(await reason(at(T0).verify(token))).toBe('accepted');
    expect(await reason(at(T0, [KEY_NEW]).verify(token))).toBe('invalid');
  });

  it('keeps a retired key for the longest link it could have signed (7 days), then drops it', async () => {
    const { token } = await at(T0, [KEY_OLD]).issue(ORG, 604_800);
    const retired = [KEY_NEW, { ...KEY_OLD, retiredAt: plus(10) }];
    expect(await reason(at(plus(604_000), retired).verify(token))).toBe('accepted');
    const { token: late } = await at(plus(604_800 + 20), [KEY_OLD]).issue(ORG, 60);
    expect(await reason(at(plus(604_800 + 21), retired).verify(late))).toBe('invalid');
  });

  it('refuses a token a retired key "signed" after its retirement', async () => {
    const { token } = await at(plus(3600), [KEY_OLD]).issue(ORG, 600);
    expect(await reason(at(plus(3601), [KEY_NEW, { ...KEY_OLD, retiredAt: T0 }]).verify(token))).toBe('invalid');
  });

  it.each([
    ['alg none', () => `${b64({ alg: 'none', kid: 'new' })}.${b64(claims())}.`],
    ['HS512', () => sign({ alg: 'HS512', kid: 'new' }, claims(), KEY_NEW.secret)],
    ['a wrong secret', () => sign({ alg: 'HS256', kid: 'new' }, claims(), 'x'.repeat(40))],
    ['an unknown kid', () => sign({ alg: 'HS256', kid: 'nope' }, claims(), KEY_NEW.secret)],
    ['no kid', () => sign({ alg: 'HS256' }, claims(), KEY_NEW.secret)],
    ['no exp', () => sign({ alg: 'HS256', kid: 'new' }, claims({ exp: undefined }), KEY_NEW.secret)],
    ['no org', () => sign({ alg: 'HS256', kid: 'new' }, claims({ org: undefined }), KEY_NEW.secret)],
    ['a public access claim', () => sign({ alg: 'HS256', kid: 'new' }, claims({ acc: 'public' }), KEY_NEW.secret)],
    ['another issuer', () => sign({ alg: 'HS256', kid: 'new' }, claims({ iss: 'x' }), KEY_NEW.secret)],
    ['another audience', () => sign({ alg: 'HS256', kid: 'new' }, claims({ aud: 'x' }), KEY_NEW.secret)],
    [
      'a changed payload',
      () => {
        const [h, , s] = sign({ alg: 'HS256', kid: 'new' }, claims(), KEY_NEW.secret).split('.');
        return `${h}.${b64(claims({ org: 'someone-else' }))}.${s}`;
      },
    ],
    ['garbage', () => 'a.b.c'],
    ['an empty string', () => ''],
  ])('refuses %s', async (_name, make) => {
    expect(['invalid', 'malformed']).toContain(await reason(at(T0).verify(make())));
  });

  it('says "expired" for an expired but otherwise valid token', async () => {
    expect(await reason(at(plus(3600)).verify(sign({ alg: 'HS256', kid: 'new' }, claims(), KEY_NEW.secret)))).toBe('expired');
  });
});
