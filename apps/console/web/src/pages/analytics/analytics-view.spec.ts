import {
  addDays,
  bucketLabel,
  businessHoursNote,
  chartData,
  chatPath,
  duration,
  localDate,
  memberText,
  messageTotals,
  messagesQuery,
  metricsQuery,
  periodOf,
  startOfLocalDay,
  teamRow,
  type MessageBucket,
} from './analytics-view';

describe('console analytics page logic', () => {
  const now = new Date('2026-11-29T20:30:00Z');
  const custom = { from: '', to: '' };

  it('starts a local day at its midnight in the zone, across offsets and DST changes', () => {
    expect(startOfLocalDay('2026-11-29', 'UTC').toISOString()).toBe('2026-11-29T00:00:00.000Z');
    expect(startOfLocalDay('2026-11-29', 'Asia/Kolkata').toISOString()).toBe('2026-11-28T18:30:00.000Z');
    expect(startOfLocalDay('2026-11-29', 'America/New_York').toISOString()).toBe('2026-11-29T05:00:00.000Z');
    // the day of a change: midnight before it, with the offset in force then
    expect(startOfLocalDay('2026-03-29', 'Europe/Paris').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfLocalDay('2026-10-25', 'Europe/Paris').toISOString()).toBe('2026-10-24T22:00:00.000Z');
    // Santiago skips midnight (00:00 → 01:00) on 2026-09-06: the day starts at 01:00 local, 04:00 UTC
    expect(startOfLocalDay('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });

  it('reads the local date of an instant in the zone and moves dates by days', () => {
    expect(localDate(now, 'UTC')).toBe('2026-11-29');
    expect(localDate(now, 'Asia/Kolkata')).toBe('2026-11-30');
    expect(addDays('2026-11-29', 3)).toBe('2026-12-02');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('turns a preset into whole local days ending with today, and a custom span into its days both included', () => {
    expect(periodOf('today', 'Asia/Kolkata', now, custom)).toEqual({ from: '2026-11-29T18:30:00.000Z', to: '2026-11-30T18:30:00.000Z' });
    expect(periodOf('7d', 'UTC', now, custom)).toEqual({ from: '2026-11-23T00:00:00.000Z', to: '2026-11-30T00:00:00.000Z' });
    expect(periodOf('30d', 'UTC', now, custom)?.from).toBe('2026-10-31T00:00:00.000Z');
    expect(periodOf('custom', 'UTC', now, { from: '2026-11-01', to: '2026-11-02' })).toEqual({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-03T00:00:00.000Z',
    });
    expect(periodOf('custom', 'UTC', now, { from: '2026-11-03', to: '2026-11-02' })).toBeNull();
    expect(periodOf('custom', 'UTC', now, { from: '', to: '2026-11-02' })).toBeNull();
  });

  it('builds the routes’ query with the phone only when one is chosen', () => {
    const p = { from: '2026-11-01T00:00:00.000Z', to: '2026-11-02T00:00:00.000Z' };
    expect(metricsQuery(p, 'Europe/Paris', '')).toBe('from=2026-11-01T00%3A00%3A00.000Z&to=2026-11-02T00%3A00%3A00.000Z&tz=Europe%2FParis');
    expect(metricsQuery(p, 'UTC', 'ph 1', 'hour')).toBe(
      'from=2026-11-01T00%3A00%3A00.000Z&to=2026-11-02T00%3A00%3A00.000Z&tz=UTC&interval=hour&phone_id=ph+1',
    );
  });

  it('writes durations for people, and a dash without one', () => {
    expect([null, 999, 45_000, 180_000, 3 * 3_600_000, 3 * 3_600_000 + 5 * 60_000, 50 * 3_600_000, 48 * 3_600_000].map(duration)).toEqual([
      '–',
      '1 s',
      '45 s',
      '3 min',
      '3 h',
      '3 h 5 min',
      '2 d 2 h',
      '2 d',
    ]);
    expect(
      messageTotals({ active_chats: 2, incoming: 5, outgoing: 1, flagged: 0, first_response_ms: { median: 180_000, p90: null, count: 1 } }),
    ).toEqual([
      ['Active chats', '2'],
      ['Incoming', '5'],
      ['Outgoing', '1'],
      ['Flagged', '0'],
      ['First response (median)', '3 min'],
      ['First response (p90)', '–'],
      ['Next response (median)', '–'],
      ['Next response (p90)', '–'],
    ]);
    const next = { median: 120_000, p90: 200_000, count: 2 };
    expect(
      messageTotals({
        active_chats: 2,
        incoming: 5,
        outgoing: 3,
        flagged: 0,
        first_response_ms: { median: null, p90: null, count: 0 },
        next_response_ms: next,
      }).slice(4),
    ).toEqual([
      ['First response (median)', '–'],
      ['First response (p90)', '–'],
      ['Next response (median)', '2 min'],
      ['Next response (p90)', '3 min'],
    ]);
  });

  it('writes a team row with its next responses, and none from an older service without them', () => {
    const member = {
      member: 'agent@example.com',
      active_chats: 1,
      messages_sent: 2,
      first_response_ms: { median: 240_000, count: 1 },
      tickets_closed: 0,
      tickets_unresolved: 3,
    };
    expect(teamRow({ ...member, next_response_ms: { median: 120_000, count: 1 } })).toEqual([
      'agent@example.com',
      '2',
      '1',
      '4 min',
      '1',
      '2 min',
      '1',
      '0',
      '3',
    ]);
    expect(teamRow({ ...member, active_chats: undefined }).slice(2, 7)).toEqual(['', '4 min', '1', '–', '0']);
  });

  it("names a token's row by the token's name, an email's by the email", () => {
    const id = '3f2a9c1e-0000-4000-8000-000000000001';
    expect(memberText({ member: id, name: 'Zapier' })).toBe('Zapier (token 3f2a9c1e…)');
    expect(memberText({ member: 'agent@example.com', name: null })).toBe('agent@example.com');
    expect(memberText({ member: id })).toBe(id); // an older service without names
  });

  it('adds the interval and a chosen label to the messages query', () => {
    const base = 'from=a&to=b&tz=UTC';
    expect(messagesQuery(base, 'day', '')).toBe('from=a&to=b&tz=UTC&interval=day');
    expect(messagesQuery(base, 'hour', 'VIP clients')).toBe('from=a&to=b&tz=UTC&interval=hour&label=VIP+clients');
  });

  it('notes business hours only when an answer counts them', () => {
    const note = 'Response times count business hours (schedule set on the SLA page).';
    expect(businessHoursNote({ business_hours: true }, { business_hours: true })).toBe(note);
    expect(businessHoursNote(null, { business_hours: true })).toBe(note);
    expect(businessHoursNote({ business_hours: false }, { business_hours: false })).toBeNull();
    expect(businessHoursNote({}, null, undefined)).toBeNull();
  });

  it('labels buckets and gives the chart seconds, counts and minutes (gaps where no response)', () => {
    expect(bucketLabel('2026-11-02T00:00:00+05:30', 'day')).toBe('2026-11-02');
    expect(bucketLabel('2026-11-02T14:00:00+05:30', 'hour')).toBe('2026-11-02 14:00');
    const b = (bucket: string, incoming: number, median: number | null): MessageBucket => ({
      bucket,
      active_chats: 1,
      incoming,
      outgoing: 1,
      flagged: 0,
      first_responses: median === null ? 0 : 1,
      first_response_median_ms: median,
    });
    expect(chartData([b('2026-11-02T00:00:00+00:00', 3, 90_000), b('2026-11-03T00:00:00+00:00', 0, null)])).toEqual([
      [Date.parse('2026-11-02T00:00:00Z') / 1000, Date.parse('2026-11-03T00:00:00Z') / 1000],
      [3, 0],
      [1, 1],
      [1.5, null],
    ]);
  });

  it('links a chat with its phone by number, or without a phone when unknown', () => {
    expect(chatPath('123@c.us', '447700900123@c.us')).toBe('/chats/123%40c.us?phone=447700900123');
    expect(chatPath('123@g.us', null)).toBe('/chats/123%40g.us');
  });
});
