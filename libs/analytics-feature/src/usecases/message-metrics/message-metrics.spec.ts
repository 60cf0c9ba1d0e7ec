import { MessageMetricsRpc, RightNowRpc, slotPeriod } from '@mapi/contracts';
import { offsetText } from './message-metrics.usecase';

const ctx = {
  org_id: '00000000-0000-4000-8000-000000000001',
  token_id: '00000000-0000-4000-8000-000000000002',
  phone_scope: null,
  phone: null,
};
const parse = (query: Record<string, string>) => MessageMetricsRpc.request.safeParse({ ctx, query });
const issues = (query: Record<string, string>) => {
  const r = parse(query);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};
const period = { from: '2026-11-01T00:00:00+01:00', to: '2026-11-08T00:00:00+01:00' };

describe('GET /analytics/messages query', () => {
  it('takes a period, a time zone and an interval, with UTC and day by default', () => {
    const r = parse(period);
    expect(r.success && r.data.query).toEqual({ ...period, tz: 'UTC', interval: 'day' });
    expect(parse({ ...period, tz: 'Asia/Kolkata', interval: 'hour', phone_id: 'phone-1' }).success).toBe(true);
  });

  it('refuses a period that is empty, reversed or too long, naming `to`', () => {
    expect(issues({ from: period.from, to: period.from })).toEqual(['query.to: to must be after from']);
    expect(issues({ from: period.to, to: period.from })).toEqual(['query.to: to must be after from']);
    expect(issues({ from: '2025-01-01T00:00:00Z', to: '2026-01-03T00:00:00Z' })).toEqual([
      'query.to: the period must not be longer than 366 days',
    ]);
    expect(issues({ from: '2026-01-01T00:00:00Z', to: '2026-02-02T00:00:00Z', interval: 'hour' })).toEqual([
      'query.to: the period must not be longer than 31 days with interval=hour',
    ]);
  });

  it('refuses unknown time zones, offsets as zones, bad instants and intervals', () => {
    for (const tz of ['Mars/Olympus', '+01:00', '', 'Europe/Paris; DROP TABLE', 'a'.repeat(80)]) {
      expect(issues({ ...period, tz }).some((i) => i.startsWith('query.tz'))).toBe(true);
    }
    expect(issues({ ...period, from: '2026-11-01' }).some((i) => i.startsWith('query.from'))).toBe(true);
    expect(issues({ ...period, to: 'tomorrow' }).some((i) => i.startsWith('query.to'))).toBe(true);
    expect(issues({ ...period, interval: 'week' }).some((i) => i.startsWith('query.interval'))).toBe(true);
    expect(issues({ to: period.to }).some((i) => i.startsWith('query.from'))).toBe(true);
  });
});

describe('GET /analytics/now query', () => {
  it('takes a limit from 1 to 1000 (default 100)', () => {
    const ok = RightNowRpc.request.safeParse({ ctx, query: {} });
    expect(ok.success && ok.data.query.limit).toBe(100);
    for (const limit of ['0', '1001', 'x', '1.5']) expect(RightNowRpc.request.safeParse({ ctx, query: { limit } }).success).toBe(false);
  });
});

describe('periods and buckets', () => {
  it('widens the period to whole quarter hours', () => {
    const p = slotPeriod('2026-11-01T10:07:00Z', '2026-11-01T11:01:00Z');
    expect([p.from.toISOString(), p.to.toISOString()]).toEqual(['2026-11-01T10:00:00.000Z', '2026-11-01T11:15:00.000Z']);
  });

  it('writes offsets as ±HH:MM', () => {
    expect([offsetText(0), offsetText(3600), offsetText(19_800), offsetText(-12_600)]).toEqual(['+00:00', '+01:00', '+05:30', '-03:30']);
  });
});
