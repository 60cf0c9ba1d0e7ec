import { addBusinessMinutes, addBusinessMs, businessMsBetween, memoDays, type BusinessSchedule } from './business-time';
import { instantOf, offsetAt } from './zoned-time';

const H = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const nineToFive = [{ start: '09:00', end: '17:00' }];
const weekdays = (hours: { start: string; end: string }[]) => ({
  monday: hours,
  tuesday: hours,
  wednesday: hours,
  thursday: hours,
  friday: hours,
});
const everyDay = (hours: { start: string; end: string }[]) => ({ ...weekdays(hours), saturday: hours, sunday: hours });

const office: BusinessSchedule = { time_zone: 'UTC', weekly: weekdays(nineToFive), holidays: [] };

describe('zoned time', () => {
  it('reads offsets on both sides of a DST change', () => {
    expect(offsetAt(at('2026-03-29T00:59:00Z'), 'Europe/Paris')).toBe(H);
    expect(offsetAt(at('2026-03-29T01:00:00Z'), 'Europe/Paris')).toBe(2 * H);
  });

  it('maps a skipped wall clock past the gap and a repeated one to its first occurrence', () => {
    expect(iso(instantOf(at('2026-03-29T02:30:00Z'), 'Europe/Paris'))).toBe('2026-03-29T01:30:00.000Z');
    expect(iso(instantOf(at('2026-10-25T02:30:00Z'), 'Europe/Paris'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(instantOf(at('2026-07-01T09:00:00Z'), 'Asia/Kolkata'))).toBe('2026-07-01T03:30:00.000Z');
  });
});

describe('businessMsBetween', () => {
  it('counts only the hours of the week (Friday 16:00 to Monday 10:00 is two hours)', () => {
    expect(businessMsBetween(office, at('2026-11-27T16:00:00Z'), at('2026-11-30T10:00:00Z'))).toBe(2 * H);
  });

  it('is 0 for an empty or reversed span, and for a schedule with no hours at all', () => {
    expect(businessMsBetween(office, at('2026-11-30T10:00:00Z'), at('2026-11-30T10:00:00Z'))).toBe(0);
    expect(businessMsBetween(office, at('2026-11-30T12:00:00Z'), at('2026-11-30T10:00:00Z'))).toBe(0);
    const closed: BusinessSchedule = { time_zone: 'UTC', weekly: {}, holidays: [] };
    expect(businessMsBetween(closed, at('2026-11-01T00:00:00Z'), at('2026-12-01T00:00:00Z'))).toBe(0);
  });

  it('reads the hours in the schedule’s zone (09:00–17:00 Asia/Kolkata is 03:30–11:30 UTC)', () => {
    const s: BusinessSchedule = { time_zone: 'Asia/Kolkata', weekly: weekdays(nineToFive), holidays: [] };
    expect(businessMsBetween(s, at('2026-11-30T00:00:00Z'), at('2026-11-30T04:00:00Z'))).toBe(H / 2);
    expect(businessMsBetween(s, at('2026-11-30T00:00:00Z'), at('2026-12-01T00:00:00Z'))).toBe(8 * H);
  });

  it('counts a night across a DST change as the clocks run: 7 hours in spring, 9 in autumn', () => {
    const nights: BusinessSchedule = { time_zone: 'Europe/Paris', weekly: { saturday: [{ start: '22:00', end: '06:00' }] }, holidays: [] };
    expect(businessMsBetween(nights, at('2026-03-28T00:00:00Z'), at('2026-03-30T00:00:00Z'))).toBe(7 * H);
    expect(businessMsBetween(nights, at('2026-10-24T00:00:00Z'), at('2026-10-26T00:00:00Z'))).toBe(9 * H);
    // an ordinary Saturday night: 8 hours
    expect(businessMsBetween(nights, at('2026-11-28T00:00:00Z'), at('2026-11-30T00:00:00Z'))).toBe(8 * H);
  });

  it('counts hours that cross the skipped hour of New York’s spring change as elapsed time', () => {
    const s: BusinessSchedule = { time_zone: 'America/New_York', weekly: { sunday: [{ start: '01:00', end: '04:00' }] }, holidays: [] };
    expect(businessMsBetween(s, at('2026-03-08T00:00:00Z'), at('2026-03-09T00:00:00Z'))).toBe(2 * H);
  });

  it('leaves holidays out, with the part of an overnight interval after a holiday’s midnight', () => {
    const s: BusinessSchedule = { time_zone: 'UTC', weekly: everyDay([{ start: '20:00', end: '04:00' }]), holidays: ['2026-12-25'] };
    // Thursday 24th 20:00 → Friday 25th 00:00 counts (4 h); the 25th's own night is out; the 26th's starts at 20:00
    expect(businessMsBetween(s, at('2026-12-24T12:00:00Z'), at('2026-12-26T21:00:00Z'))).toBe(4 * H + H);
    expect(businessMsBetween({ ...office, holidays: ['2026-12-25'] }, at('2026-12-24T17:00:00Z'), at('2026-12-28T09:30:00Z'))).toBe(H / 2);
  });

  it('counts overlapping intervals once (an overnight one and the next morning’s)', () => {
    const s: BusinessSchedule = {
      time_zone: 'UTC',
      weekly: { monday: [{ start: '22:00', end: '06:00' }], tuesday: [{ start: '00:00', end: '08:00' }] },
      holidays: [],
    };
    expect(businessMsBetween(s, at('2026-11-30T00:00:00Z'), at('2026-12-02T00:00:00Z'))).toBe(10 * H);
  });

  it('takes 24:00 as the end of the day', () => {
    const s: BusinessSchedule = { time_zone: 'UTC', weekly: { monday: [{ start: '18:00', end: '24:00' }] }, holidays: [] };
    expect(businessMsBetween(s, at('2026-11-30T00:00:00Z'), at('2026-12-01T12:00:00Z'))).toBe(6 * H);
  });
});

describe('addBusinessMs / addBusinessMinutes', () => {
  it('is plain addition inside the hours', () => {
    expect(iso(addBusinessMinutes(office, at('2026-11-30T10:00:00Z'), 30))).toBe('2026-11-30T10:30:00.000Z');
  });

  it('carries over nights and weekends (Friday 16:30 + 60 business minutes is Monday 09:30)', () => {
    expect(iso(addBusinessMinutes(office, at('2026-11-27T16:30:00Z'), 60))).toBe('2026-11-30T09:30:00.000Z');
  });

  it('starts counting at the next opening when outside the hours', () => {
    expect(iso(addBusinessMinutes(office, at('2026-11-28T03:00:00Z'), 15))).toBe('2026-11-30T09:15:00.000Z');
  });

  it('ends exactly at a closing time rather than at the next opening', () => {
    expect(iso(addBusinessMinutes(office, at('2026-11-30T16:00:00Z'), 60))).toBe('2026-11-30T17:00:00.000Z');
  });

  it('runs through an overnight interval, from the day before when it covers the start', () => {
    const s: BusinessSchedule = { time_zone: 'UTC', weekly: { monday: [{ start: '22:00', end: '02:00' }] }, holidays: [] };
    expect(iso(addBusinessMinutes(s, at('2026-11-30T21:00:00Z'), 180))).toBe('2026-12-01T01:00:00.000Z');
    expect(iso(addBusinessMinutes(s, at('2026-12-01T01:00:00Z'), 30))).toBe('2026-12-01T01:30:00.000Z');
  });

  it('skips holidays', () => {
    expect(iso(addBusinessMinutes({ ...office, holidays: ['2026-12-25'] }, at('2026-12-24T16:30:00Z'), 60))).toBe(
      '2026-12-28T09:30:00.000Z',
    );
  });

  it('respects DST: 09:00 Paris is 08:00 UTC before the change and 07:00 after', () => {
    const paris: BusinessSchedule = { time_zone: 'Europe/Paris', weekly: weekdays(nineToFive), holidays: [] };
    expect(iso(addBusinessMinutes(paris, at('2026-03-27T15:30:00Z'), 60))).toBe('2026-03-30T07:30:00.000Z');
    expect(iso(addBusinessMinutes(paris, at('2026-10-23T14:30:00Z'), 60))).toBe('2026-10-26T08:30:00.000Z');
  });

  it('never comes for a schedule with no hours; ms ≤ 0 is the start itself', () => {
    const closed: BusinessSchedule = { time_zone: 'UTC', weekly: { monday: [] }, holidays: [] };
    expect(addBusinessMinutes(closed, at('2026-11-30T10:00:00Z'), 5)).toBeNull();
    expect(addBusinessMs(closed, at('2026-11-30T10:00:00Z'), 0)).toBe(at('2026-11-30T10:00:00Z'));
  });

  it('reaches far deadlines of a thin schedule (one hour a week, 100 hours later)', () => {
    const thin: BusinessSchedule = { time_zone: 'UTC', weekly: { wednesday: [{ start: '10:00', end: '11:00' }] }, holidays: [] };
    const due = addBusinessMinutes(thin, at('2026-12-02T10:00:00Z'), 100 * 60);
    expect(iso(due)).toBe(new Date(at('2026-12-02T11:00:00Z') + 99 * 7 * 86_400_000).toISOString());
  });

  it('is the inverse of businessMsBetween for many starts and lengths (DST, overnight, holidays)', () => {
    const schedules: BusinessSchedule[] = [
      office,
      { time_zone: 'Europe/Paris', weekly: everyDay([{ start: '22:00', end: '06:00' }]), holidays: ['2026-03-29', '2026-10-26'] },
      {
        time_zone: 'America/New_York',
        weekly: {
          ...weekdays([
            { start: '08:30', end: '12:00' },
            { start: '13:00', end: '18:15' },
          ]),
          saturday: [{ start: '23:00', end: '02:00' }],
        },
        holidays: ['2026-11-26'],
      },
    ];
    let seed = 42;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (const s of schedules) {
      for (let i = 0; i < 60; i++) {
        const from = at('2026-01-01T00:00:00Z') + Math.floor(rand() * 360 * 86_400_000);
        const ms = Math.floor(rand() * 40 * H) + 1;
        const due = addBusinessMs(s, from, ms);
        expect(due).not.toBeNull();
        expect(businessMsBetween(s, from, due as number)).toBe(ms);
        // and not a millisecond earlier: the deadline is the first instant with that much business time
        expect(businessMsBetween(s, from, (due as number) - 1)).toBe(ms - 1);
      }
    }
  });

  it('gives the same answers with memoized days (a small memo, emptied as it fills, as the response samples use it)', () => {
    const schedules: BusinessSchedule[] = [
      office,
      { time_zone: 'Europe/Paris', weekly: everyDay([{ start: '22:00', end: '06:00' }]), holidays: ['2026-03-29', '2026-10-26'] },
      {
        time_zone: 'Asia/Kolkata',
        weekly: weekdays([
          { start: '09:30', end: '13:00' },
          { start: '14:00', end: '18:00' },
        ]),
        holidays: [],
      },
    ];
    let seed = 7;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (const s of schedules) {
      const days = memoDays(s, 8);
      for (let i = 0; i < 200; i++) {
        const from = at('2026-01-01T00:00:00Z') + Math.floor(rand() * 360 * 86_400_000);
        const to = from + Math.floor(rand() * (i % 2 ? 3 * H : 20 * 24 * H));
        expect(businessMsBetween(s, from, to, days)).toBe(businessMsBetween(s, from, to));
      }
    }
  });
});
