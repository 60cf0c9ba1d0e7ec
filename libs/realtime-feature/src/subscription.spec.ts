import { roomsFor, roomsOf } from './subscription';

describe('rooms: who may see an event', () => {
  const seen = (sub: Parameters<typeof roomsOf>[0], event: Parameters<typeof roomsFor>[0]) =>
    roomsOf(sub).some((r) => roomsFor(event).includes(r));
  const org = { org_id: 'org-a', token_id: 't' };

  it('an unscoped socket sees every event of its organization, with or without a phone', () => {
    expect(seen({ ...org, phone_ids: null }, { org_id: 'org-a', phone_id: 'p1' })).toBe(true);
    expect(seen({ ...org, phone_ids: null }, { org_id: 'org-a', phone_id: null })).toBe(true);
  });

  it('nothing of another organization, even for a phone id it also lists', () => {
    expect(seen({ ...org, phone_ids: null }, { org_id: 'org-b', phone_id: 'p1' })).toBe(false);
    expect(seen({ ...org, phone_ids: ['p1'] }, { org_id: 'org-b', phone_id: 'p1' })).toBe(false);
  });

  it('a socket limited to phones sees only those phones, and no event tied to no phone', () => {
    expect(seen({ ...org, phone_ids: ['p1'] }, { org_id: 'org-a', phone_id: 'p1' })).toBe(true);
    expect(seen({ ...org, phone_ids: ['p1'] }, { org_id: 'org-a', phone_id: 'p2' })).toBe(false);
    expect(seen({ ...org, phone_ids: ['p1'] }, { org_id: 'org-a', phone_id: null })).toBe(false);
    expect(seen({ ...org, phone_ids: [] }, { org_id: 'org-a', phone_id: 'p1' })).toBe(false);
  });
});
