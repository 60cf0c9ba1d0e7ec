import {
  editRights,
  errorFor,
  fieldErrors,
  formOf,
  hoursText,
  minutesText,
  otherErrors,
  parseHolidays,
  parseHours,
  policyBody,
  policyPatch,
  scheduleBody,
  type SlaPolicy,
} from './sla-view';

const policy: SlaPolicy = {
  policy_id: 'p1',
  name: 'VIP',
  kind: 'first_response',
  minutes: 30,
  label_id: 'l1',
  phone_id: null,
  enabled: true,
  created_at: '2026-11-29T10:00:00.000Z',
  updated_at: '2026-11-29T10:00:00.000Z',
};

describe('sla-view', () => {
  it('edit rights: owners and admins change policies; the schedule only without a phone limit; members read', () => {
    expect(editRights({ role: 'owner', phone_ids: null })).toEqual({ policies: true, schedule: true });
    expect(editRights({ role: 'admin', phone_ids: ['a'] })).toEqual({ policies: true, schedule: false });
    expect(editRights({ role: 'member', phone_ids: null })).toEqual({ policies: false, schedule: false });
    expect(editRights(null)).toEqual({ policies: false, schedule: false });
  });

  it("places a 422's fields without body., the first below a prefix, and the rest apart", () => {
    const err = { status: 422, fields: { 'body.minutes': { message: 'minutes must be at least 1' }, body: { message: 'at least one' } } };
    const f = fieldErrors(err);
    expect(f).toEqual({ minutes: 'minutes must be at least 1', body: 'at least one' });
    expect(errorFor({ 'weekly.monday.0.end': 'bad end' }, 'weekly.monday')).toBe('bad end');
    expect(errorFor({ 'weekly.monday.0.end': 'bad end' }, 'weekly.tuesday')).toBeNull();
    expect(otherErrors(f, ['minutes'])).toEqual(['at least one']);
    expect(fieldErrors({ status: 503, fields: { x: { message: 'y' } } })).toEqual({});
    expect(fieldErrors(new Error('x'))).toEqual({});
  });

  it('policy bodies: a number when the text is one, blanks as null; a patch names only what changed', () => {
    const form = formOf(policy);
    expect(policyBody({ ...form, minutes: '45' })).toEqual({
      name: 'VIP',
      kind: 'first_response',
      minutes: 45,
      label_id: 'l1',
      phone_id: null,
      enabled: true,
    });
    expect(policyBody({ ...form, minutes: 'soon' }).minutes).toBe('soon');
    expect(policyBody({ ...form, minutes: '' }).minutes).toBe('');
    expect(policyPatch(policy, form)).toBeNull();
    expect(policyPatch(policy, { ...form, minutes: '60', label_id: '' })).toEqual({ minutes: 60, label_id: null });
  });

  it('hours and holidays typed as text, and back', () => {
    expect(parseHours('09:00-12:00, 13:00 – 17:00')).toEqual([
      { start: '09:00', end: '12:00' },
      { start: '13:00', end: '17:00' },
    ]);
    expect(parseHours('9am')).toEqual([{ start: '9am', end: '' }]);
    expect(parseHours('  ')).toEqual([]);
    expect(hoursText([{ start: '22:00', end: '02:00' }])).toBe('22:00-02:00');
    expect(parseHolidays('2026-12-25, 2027-01-01\n2027-05-01')).toEqual(['2026-12-25', '2027-01-01', '2027-05-01']);
    const body = scheduleBody({
      time_zone: 'Europe/Paris',
      days: { monday: '09:00-17:00', tuesday: '', wednesday: '', thursday: '', friday: '', saturday: '', sunday: '' },
      holidays: '2026-12-25',
    });
    expect(body).toEqual({
      time_zone: 'Europe/Paris',
      weekly: {
        monday: [{ start: '09:00', end: '17:00' }],
        tuesday: [],
        wednesday: [],
        thursday: [],
        friday: [],
        saturday: [],
        sunday: [],
      },
      holidays: ['2026-12-25'],
    });
  });

  it('durations', () => {
    expect(minutesText(30)).toBe('30 min');
    expect(minutesText(150)).toBe('2 h 30 min');
    expect(minutesText(1440)).toBe('1 d');
  });
});
