import { MessageMetricsRpc, RightNowRpc, ServiceError, slotPeriod, type ChatCopy } from '@mapi/contracts';
import type { MetricsRepository } from '../../repositories/metrics-repository';
import { MEMBER_PERIOD_CHATS } from '../../scope';
import { MessageMetrics, offsetText } from './message-metrics.usecase';

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

describe('GET /analytics/messages by label', () => {
  it('takes a label (trimmed) and refuses an empty or too long one, naming `label`', () => {
    const r = parse({ ...period, label: '  VIP ' });
    expect(r.success && r.data.query.label).toBe('VIP');
    expect(issues({ ...period, label: '' })).toEqual(['query.label: label must not be empty']);
    expect(issues({ ...period, label: '   ' })).toEqual(['query.label: label must not be empty']);
    expect(issues({ ...period, label: 'x'.repeat(101) })).toEqual(['query.label: label is at most 100 characters']);
  });

  it('refuses a label over a period of more than 20,000 chats with a 422 on `to`, before asking the chats service', async () => {
    const many: ChatCopy[] = Array.from({ length: MEMBER_PERIOD_CHATS + 1 }, (_, i) => ({ phone_id: 'p', chat_id: `${i}@c.us` }));
    const metrics = { activeChats: async () => many } as unknown as MetricsRepository;
    let asked = 0;
    const usecase = new MessageMetrics(
      metrics,
      async () => [],
      async () => (asked++, []),
    );
    const query = MessageMetricsRpc.request.parse({ ctx, query: { ...period, label: 'vip' } });
    const err = await usecase.execute(query).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ status: 422 });
    expect((err as ServiceError).fields?.to?.message).toBe(
      "the period holds more than 20000 chats: a shorter period or one phone (phone_id) for a label's figures",
    );
    expect(asked).toBe(0);
  });
});

describe('GET /analytics/now query', () => {
  it('takes a limit from 1 to 1000 (default 100)', () => {
    const ok = RightNowRpc.request.safeParse({ ctx, query: {} });
    expect(ok.success && ok.data.query.limit).toBe(100);
    for (const limit of ['0', '1001', 'x', '1.5']) expect(RightNowRpc.request.safeParse({ ctx, query: { limit } }).success).toBe(false);
  });

  it('names unread_chats among the lists', () => {
    const r = RightNowRpc.request.safeParse({ ctx, query: { lists: 'unread_chats,waiting' } });
    expect(r.success && r.data.query.lists).toEqual(['waiting', 'unread_chats']);
    expect(RightNowRpc.request.safeParse({ ctx, query: { lists: 'unread' } }).success).toBe(false);
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
