import type { Member } from '../../api/types';
import {
  accessBody,
  accessEditable,
  accessFormOf,
  labelsText,
  parseLabels,
  phoneRef,
  phonesText,
  removable,
  roleChange,
} from './members-view';

const member = (over: Partial<Member> = {}): Member => ({
  user_id: 'u1',
  email: 'bo@example.com',
  role: 'member',
  is_owner: false,
  is_active: true,
  org_phones: null,
  label_ids: null,
  ...over,
});
const phones = [
  { phone_id: 'p1', org_phone: '447700900001@c.us' },
  { phone_id: 'p2', org_phone: '447700900002' },
  { phone_id: 'p3', org_phone: null },
];

describe('console members page logic', () => {
  it('names phones as PATCH /members/access takes them: the number without @c.us, else the phone_id', () => {
    expect(phones.map(phoneRef)).toEqual(['447700900001', '447700900002', 'p3']);
  });
  it('edits only role member; removes anyone but the owner', () => {
    expect(accessEditable(member())).toBe(true);
    expect(accessEditable(member({ role: 'admin' }))).toBe(false);
    expect(accessEditable(member({ role: 'admin', is_owner: true }))).toBe(false);
    expect(removable(member({ role: 'admin' }))).toBe(true);
    expect(removable(member({ role: 'admin', is_owner: true }))).toBe(false);
  });
  it('opens the form on the access the member has now', () => {
    expect(accessFormOf(member(), phones)).toEqual({ allPhones: true, phones: [], allLabels: true, labels: '' });
    expect(accessFormOf(member({ org_phones: ['447700900002@c.us', 'p3', 'gone@c.us'], label_ids: ['vip', 'sales'] }), phones)).toEqual({
      allPhones: false,
      phones: ['447700900002', 'p3'],
      allLabels: false,
      labels: 'vip, sales',
    });
  });
  it('parses labels: trimmed, lower case, no blanks or repeats', () => {
    expect(parseLabels(' Sales, vip ,sales,, ')).toEqual(['sales', 'vip']);
    expect(parseLabels('')).toEqual([]);
  });
  it('sends both fields every time: null for all, the list (maybe empty) for only these', () => {
    expect(accessBody('bo@example.com', { allPhones: true, phones: ['447700900001'], allLabels: true, labels: 'vip' })).toEqual({
      emails: ['bo@example.com'],
      orgPhones: null,
      labels: null,
    });
    expect(
      accessBody('bo@example.com', { allPhones: false, phones: ['447700900001', '447700900001'], allLabels: false, labels: 'VIP, sales' }),
    ).toEqual({
      emails: ['bo@example.com'],
      orgPhones: ['447700900001'],
      labels: ['vip', 'sales'],
    });
    expect(accessBody('bo@example.com', { allPhones: false, phones: [], allLabels: false, labels: ' ' })).toEqual({
      emails: ['bo@example.com'],
      orgPhones: [],
      labels: [],
    });
  });
  it('shows access as all, none or the list', () => {
    expect(phonesText(member())).toBe('all');
    expect(phonesText(member({ org_phones: [] }))).toBe('none');
    expect(phonesText(member({ org_phones: ['447700900001@c.us', 'p3'] }))).toBe('447700900001, p3');
    expect(labelsText(member({ label_ids: ['vip'] }))).toBe('vip');
    expect(labelsText(member({ label_ids: [] }))).toBe('none');
  });

  it('offers admin ↔ member for anyone but the owner', () => {
    expect(roleChange(member())).toEqual({ role: 'admin', label: 'Make admin' });
    expect(roleChange(member({ role: 'admin' }))).toEqual({ role: 'member', label: 'Make member' });
    expect(roleChange(member({ role: 'admin', is_owner: true }))).toBeNull();
  });
});
