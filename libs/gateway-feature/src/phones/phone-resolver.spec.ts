import { ServiceError, type PhoneRef } from '@mapi/contracts';
import type { Principal } from '../auth/principal';
import type { PhoneDirectoryClient, ResolvedPhone } from './phone-directory-client';
import { PhoneResolver } from './phone-resolver';

const ORG_A = '5b0c3f0e-4a47-4c5e-9a57-1f5f0d7a0c11';
const ORG_B = '9f1e2d3c-4b5a-4c6d-8e7f-a0b1c2d3e4f5';

const PHONE_A1 = { org_id: ORG_A, phone_id: 'phone-aaaaaaaaaaaa1', org_phone: '14155550101@c.us' };
const PHONE_A2 = { org_id: ORG_A, phone_id: 'phone-aaaaaaaaaaaa2', org_phone: '14155550102@c.us' };
const PHONE_B1 = { org_id: ORG_B, phone_id: 'phone-bbbbbbbbbbbb1', org_phone: '14155550201@c.us' };

/** In-memory stand-in for the Prisma-backed repository, scoped by organization like the real one. */
class FakePhoneRepository {
  readonly calls: { orgId: string; ref: PhoneRef }[] = [];
  private readonly phones = [PHONE_A1, PHONE_A2, PHONE_B1];

  async findByRef(orgId: string, ref: PhoneRef): Promise<ResolvedPhone | null> {
    this.calls.push({ orgId, ref });
    const phone = this.phones.find(
      (p) => p.org_id === orgId && (ref.kind === 'phone_id' ? p.phone_id === ref.phone_id : p.org_phone === ref.org_phone),
    );
    return phone ? { phone_id: phone.phone_id, org_phone: phone.org_phone } : null;
  }
}

const principal = (org_id: string, phone_scope: string[] | null = null): Principal => ({
  token_id: '6d0f8a5e-7b8c-4c1d-9e2f-0a1b2c3d4e5f',
  org_id,
  phone_scope,
  rate_limit_per_second: null,
});

function setup(ttlMs = 5_000, staleMs = 60_000) {
  const repo = new FakePhoneRepository();
  return {
    repo,
    resolver: new PhoneResolver(repo as unknown as PhoneDirectoryClient, { AUTH_CACHE_TTL_MS: ttlMs, AUTH_CACHE_STALE_MS: staleMs }),
  };
}

async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('PhoneResolver', () => {
  it('gives null when an optional x-phone is absent or blank, without a lookup', async () => {
    const { resolver, repo } = setup();
    await expect(resolver.resolve(principal(ORG_A), undefined, false)).resolves.toBeNull();
    await expect(resolver.resolve(principal(ORG_A), '  ', false)).resolves.toBeNull();
    expect(repo.calls).toEqual([]);
  });

  it('answers 422 with fields[x-phone] when a required x-phone is absent', async () => {
    const { resolver } = setup();
    const error = await rejection(resolver.resolve(principal(ORG_A), undefined, true));
    expect(error.status).toBe(422);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.fields?.['x-phone']).toEqual({ message: expect.any(String), value: null });
  });

  it.each(['+14155550101', '1415 555 0101', 'phone-AAAAAAAAAAAA1', 'phone-short', 'my-phone'])(
    'answers 422 echoing the malformed value %p',
    async (header) => {
      const { resolver, repo } = setup();
      const error = await rejection(resolver.resolve(principal(ORG_A), header, false));
      expect(error.status).toBe(422);
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.fields?.['x-phone']).toEqual({ message: expect.any(String), value: header });
      expect(repo.calls).toEqual([]);
    },
  );

  it('resolves a phone of the organization by digits and by phone_id', async () => {
    const { resolver, repo } = setup();
    const expected = { phone_id: PHONE_A1.phone_id, org_phone: PHONE_A1.org_phone };
    await expect(resolver.resolve(principal(ORG_A), '14155550101', false)).resolves.toEqual(expected);
    await expect(resolver.resolve(principal(ORG_A), PHONE_A1.phone_id, true)).resolves.toEqual(expected);
    expect(repo.calls).toEqual([
      { orgId: ORG_A, ref: { kind: 'digits', org_phone: '14155550101@c.us' } },
      { orgId: ORG_A, ref: { kind: 'phone_id', phone_id: PHONE_A1.phone_id } },
    ]);
  });

  it('resolves a phone inside the token scope', async () => {
    const { resolver } = setup();
    const phone = await resolver.resolve(principal(ORG_A, [PHONE_A2.phone_id]), PHONE_A2.phone_id, false);
    expect(phone?.phone_id).toBe(PHONE_A2.phone_id);
  });

  it('answers 401 for an unknown phone', async () => {
    const { resolver } = setup();
    const error = await rejection(resolver.resolve(principal(ORG_A), '14155550999', false));
    expect(error.toEnvelope()).toEqual({
      code: 'UNAUTHORIZED_ERROR',
      status: 401,
      message: 'Phone 14155550999 is not accessible with this token',
    });
  });

  it('answers the same 401 for a phone of another organization', async () => {
    const { resolver } = setup();
    const error = await rejection(resolver.resolve(principal(ORG_A), PHONE_B1.phone_id, false));
    expect(error.toEnvelope()).toEqual({
      code: 'UNAUTHORIZED_ERROR',
      status: 401,
      message: `Phone ${PHONE_B1.phone_id} is not accessible with this token`,
    });
  });

  it('answers the same 401 for a phone of the organization outside the token scope', async () => {
    const { resolver } = setup();
    const scoped = principal(ORG_A, [PHONE_A1.phone_id]);
    for (const header of [PHONE_A2.phone_id, '14155550102']) {
      const error = await rejection(resolver.resolve(scoped, header, false));
      expect(error.toEnvelope()).toEqual({
        code: 'UNAUTHORIZED_ERROR',
        status: 401,
        message: `Phone ${header} is not accessible with this token`,
      });
    }
  });

  it('applies the scope even when the phone came from the cache', async () => {
    const { resolver } = setup();
    await resolver.resolve(principal(ORG_A), PHONE_A2.phone_id, false);
    const error = await rejection(resolver.resolve(principal(ORG_A, [PHONE_A1.phone_id]), PHONE_A2.phone_id, false));
    expect(error.status).toBe(401);
  });

  it("always looks up within the principal's organization, never sharing answers across organizations", async () => {
    const { resolver, repo } = setup();
    await resolver.resolve(principal(ORG_B), PHONE_B1.phone_id, false);
    await rejection(resolver.resolve(principal(ORG_A), PHONE_B1.phone_id, false));
    await resolver.resolve(principal(ORG_A), '14155550101', false);
    await rejection(resolver.resolve(principal(ORG_B), '14155550101', false));
    expect(repo.calls.map((c) => c.orgId)).toEqual([ORG_B, ORG_A, ORG_A, ORG_B]);
  });
});
