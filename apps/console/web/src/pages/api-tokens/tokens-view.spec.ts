import type { Phone } from '../../api/types';
import { createBody, scopeText } from './tokens-view';

const phone = (over: Partial<Phone>): Phone => ({ phone_id: 'p1', phone_name: null, org_phone: null, ...over }) as Phone;

describe('the API tokens page', () => {
  it('says what a token reaches: every phone, or its phones by name and number', () => {
    const phones = [
      phone({ phone_id: 'p1', phone_name: 'Sales', org_phone: '4915551234@c.us' }),
      phone({ phone_id: 'p2', org_phone: '4915559999@c.us' }),
    ];
    expect(scopeText({ phone_scope: null }, phones)).toBe('Every phone');
    expect(scopeText({ phone_scope: ['p1', 'p2'] }, phones)).toBe('Sales (+4915551234), +4915559999');
    expect(scopeText({ phone_scope: ['gone'] }, phones)).toBe('gone');
  });

  it('asks for every phone when none is ticked, else the ticked phones once each', () => {
    expect(createBody('  CRM ', [])).toEqual({ name: 'CRM' });
    expect(createBody('CRM', ['p1', 'p1', 'p2'])).toEqual({ name: 'CRM', orgPhones: ['p1', 'p2'] });
  });
});
