import { ReminderRepeatSchema } from '@mapi/contracts';
import { nextOccurrence, occurrence } from './repeat';

const at = (iso: string) => new Date(iso);
const repeat = (r: Record<string, unknown>) => ReminderRepeatSchema.parse(r);

describe('repeating reminders', () => {
  it('counts occurrences from the series start: days, weeks, months (clamped, without drift), years', () => {
    const start = at('2026-01-31T09:00:00.000Z');
    expect(occurrence(start, repeat({ frequency: 2, interval: 'days' }), 3)).toEqual(at('2026-02-06T09:00:00.000Z'));
    expect(occurrence(start, repeat({ frequency: 1, interval: 'weeks' }), 2)).toEqual(at('2026-02-14T09:00:00.000Z'));
    const monthly = repeat({ frequency: 1, interval: 'months' });
    expect([1, 2, 3].map((i) => occurrence(start, monthly, i).toISOString())).toEqual([
      '2026-02-28T09:00:00.000Z',
      '2026-03-31T09:00:00.000Z',
      '2026-04-30T09:00:00.000Z',
    ]);
    expect(occurrence(at('2028-02-29T00:00:00.000Z'), repeat({ frequency: 1, interval: 'years' }), 1)).toEqual(
      at('2029-02-28T00:00:00.000Z'),
    );
  });

  it('the next occurrence is the first after the given instant: passed ones are skipped', () => {
    const start = at('2026-03-01T08:00:00.000Z');
    const daily = repeat({ frequency: 1, interval: 'days' });
    expect(nextOccurrence(start, daily, 0, at('2026-03-01T08:00:00.500Z'))).toEqual({ at: at('2026-03-02T08:00:00.000Z'), index: 1 });
    expect(nextOccurrence(start, daily, 0, at('2026-03-05T09:00:00.000Z'))).toEqual({ at: at('2026-03-06T08:00:00.000Z'), index: 5 });
    expect(nextOccurrence(start, daily, 0, at('2026-03-05T08:00:00.000Z'))).toEqual({ at: at('2026-03-06T08:00:00.000Z'), index: 5 });
    const quarterly = repeat({ frequency: 3, interval: 'months' });
    expect(nextOccurrence(start, quarterly, 0, at('2027-01-15T00:00:00.000Z'))).toEqual({ at: at('2027-03-01T08:00:00.000Z'), index: 4 });
  });

  it('ends after a count of reminders in all, or on a last day (inclusive) or instant', () => {
    const start = at('2026-03-01T08:00:00.000Z');
    const three = repeat({ frequency: 1, interval: 'days', end: 'after', on: 3 });
    expect(nextOccurrence(start, three, 1, at('2026-03-02T08:00:01.000Z'))).toEqual({ at: at('2026-03-03T08:00:00.000Z'), index: 2 });
    expect(nextOccurrence(start, three, 2, at('2026-03-03T08:00:01.000Z'))).toBeNull();
    const untilDay = repeat({ frequency: 1, interval: 'days', end: 'on', on: '2026-03-03' });
    expect(nextOccurrence(start, untilDay, 1, at('2026-03-02T08:00:01.000Z'))?.index).toBe(2);
    expect(nextOccurrence(start, untilDay, 2, at('2026-03-03T08:00:01.000Z'))).toBeNull();
    const untilInstant = repeat({ frequency: 1, interval: 'days', end: 'on', on: '2026-03-03T07:59:59Z' });
    expect(nextOccurrence(start, untilInstant, 1, at('2026-03-02T08:00:01.000Z'))).toBeNull();
  });

  it('the contract normalizes repeat and refuses what it cannot read', () => {
    const ok = repeat({ frequency: '2', interval: 'weeks', end: 'after', on: '5' });
    expect(ok).toEqual({ frequency: 2, interval: 'weeks', end: 'after', on: '5' });
    expect(ReminderRepeatSchema.parse(ok)).toEqual(ok);
    expect(repeat({ frequency: 1, interval: 'days', end: 'on', on: '2026-12-31 18:00:00+00' }).on).toBe('2026-12-31T18:00:00.000Z');
    const paths = (r: Record<string, unknown>) => (ReminderRepeatSchema.safeParse(r).error?.issues ?? []).map((i) => i.path.join('.'));
    expect(paths({ frequency: 0, interval: 'days' })).toEqual(['frequency']);
    expect(paths({ frequency: true, interval: 'days' })).toEqual(['frequency']);
    expect(paths({ frequency: 1, interval: 'hours' })).toEqual(['interval']);
    expect(paths({ frequency: 1, interval: 'days', end: 'after' })).toEqual(['on']);
    expect(paths({ frequency: 1, interval: 'days', end: 'on', on: 'someday' })).toEqual(['on']);
    expect(paths({ frequency: 1, interval: 'days', on: '3' })).toEqual(['on']);
  });
});
