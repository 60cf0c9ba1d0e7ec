import { Errors } from '@mapi/contracts';
import { ConnectionLimits } from './connection-limits';
import { HandshakeRefusal, authorizeHandshake, type HandshakePrincipal } from './handshake';

describe('authorizeHandshake', () => {
  const principal: HandshakePrincipal = { token_id: 't1', org_id: 'org-a', phone_scope: ['p1', 'p2'] };
  const auth = {
    authenticate: jest.fn(async (h: string | undefined) =>
      h === 'Bearer good' ? principal : Promise.reject(Errors.unauthorized('Invalid bearer token')),
    ),
  };
  const phones = { resolve: jest.fn(async (_p: HandshakePrincipal, h: string | undefined) => (h ? { phone_id: h } : null)) };

  it('uses the x-phone phone when given, else the token scope', async () => {
    await expect(authorizeHandshake({ authorization: 'Bearer good', 'x-phone': 'p2' }, auth, phones)).resolves.toEqual({
      org_id: 'org-a',
      token_id: 't1',
      phone_ids: ['p2'],
    });
    await expect(authorizeHandshake({ authorization: 'Bearer good' }, auth, phones)).resolves.toEqual({
      org_id: 'org-a',
      token_id: 't1',
      phone_ids: ['p1', 'p2'],
    });
    expect(phones.resolve).toHaveBeenLastCalledWith(principal, undefined, false);
  });

  it('turns service errors into refusals with the same code, status and message', async () => {
    const refusal = await authorizeHandshake({ authorization: 'Bearer bad' }, auth, phones).catch((e) => e);
    expect(refusal).toBeInstanceOf(HandshakeRefusal);
    expect(refusal.data).toEqual({ code: 'UNAUTHORIZED_ERROR', status: 401, message: 'Invalid bearer token' });
  });

  it('answers 503 (not 401) when the token store fails', async () => {
    const broken = { authenticate: async () => Promise.reject(new Error('db down')) };
    const refusal = await authorizeHandshake({ authorization: 'Bearer good' }, broken, phones).catch((e) => e);
    expect(refusal.data).toMatchObject({ status: 503 });
  });
});

describe('ConnectionLimits', () => {
  it('refuses beyond the per-token and total limits, and frees slots on release', () => {
    const limits = new ConnectionLimits(3, 2);
    limits.acquire('a');
    limits.acquire('a');
    expect(() => limits.acquire('a')).toThrow(/for this token \(limit 2\)/);
    limits.acquire('b');
    expect(() => limits.acquire('c')).toThrow(/on this server \(limit 3\)/);
    limits.release('a');
    limits.acquire('c');
    expect(limits.open).toBe(3);
  });
});
