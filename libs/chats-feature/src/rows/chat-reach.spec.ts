import type { RequestContext } from '@mapi/contracts';
import { chatReach, reachesNothing } from './chat-reach';

const member = (role: 'owner' | 'admin' | 'member', label_ids?: string[] | null) => ({
  member_id: 'm',
  session_id: 's',
  email: 'Amy@Example.com',
  role,
  label_ids,
});
const ctx = (over: Partial<RequestContext>): Pick<RequestContext, 'phone' | 'phone_scope' | 'member'> => ({
  phone: null,
  phone_scope: null,
  member: null,
  ...over,
});

describe('chatReach', () => {
  it('a bearer token, an owner or an admin: phones only (x-phone, else the scope)', () => {
    expect(chatReach(ctx({ phone_scope: ['p1'] }))).toEqual({ phoneIds: ['p1'], member: null });
    expect(chatReach(ctx({ phone: { phone_id: 'p2', org_phone: null }, phone_scope: ['p1', 'p2'] }))).toEqual({
      phoneIds: ['p2'],
      member: null,
    });
    expect(chatReach(ctx({ member: member('owner') }))).toEqual({ phoneIds: null, member: null });
    expect(chatReach(ctx({ member: member('admin', ['vip']) }))).toEqual({ phoneIds: null, member: null });
  });

  it("a member: their email in lower case (the overrides' key), their labels, and x-phone as the only phone a grant reaches", () => {
    expect(chatReach(ctx({ member: member('member', ['vip']), phone_scope: ['p1'] }))).toEqual({
      phoneIds: ['p1'],
      member: { email: 'amy@example.com', labels: ['vip'], grantPhone: null },
    });
    expect(chatReach(ctx({ member: member('member'), phone: { phone_id: 'p1', org_phone: null } })).member).toEqual({
      email: 'amy@example.com',
      labels: null,
      grantPhone: 'p1',
    });
  });

  it("nothing is reached by an empty phone scope, unless a member's overrides may grant a chat", () => {
    expect(reachesNothing({ phoneIds: [], member: null })).toBe(true);
    expect(reachesNothing({ phoneIds: [], member: { email: 'a@x.com', labels: null, grantPhone: null } })).toBe(false);
    expect(reachesNothing({ phoneIds: null, member: null })).toBe(false);
  });
});
