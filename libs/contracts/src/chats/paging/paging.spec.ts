import { ListChatsQuery } from '../list-chats/list-chats.contract';
import { ListAllMessagesQuery } from '../list-all-messages/list-all-messages.contract';
import { pagePositions, parseTimeBound } from './paging';

describe('parseTimeBound', () => {
  it('reads a date as a whole UTC day', () => {
    expect(parseTimeBound('2025-04-25', false)?.toISOString()).toBe('2025-04-25T00:00:00.000Z');
    expect(parseTimeBound('2025-04-25', true)?.toISOString()).toBe('2025-04-25T23:59:59.999Z');
  });

  it('reads ISO date-times with or without an offset (UTC without), and epoch milliseconds', () => {
    expect(parseTimeBound('2025-04-25T10:00:00Z', false)?.toISOString()).toBe('2025-04-25T10:00:00.000Z');
    expect(parseTimeBound('2025-04-25T10:00:00+02:00', false)?.toISOString()).toBe('2025-04-25T08:00:00.000Z');
    expect(parseTimeBound('2025-04-25 10:00', true)?.toISOString()).toBe('2025-04-25T10:00:00.000Z');
    expect(parseTimeBound('1745575200000', false)?.toISOString()).toBe('2025-04-25T10:00:00.000Z');
  });

  it.each(['2025-04-31', '2025-02-29T10:00:00Z', 'yesterday', '', '2025-13-01', '25-04-2025'])('refuses %p', (v) => {
    expect(parseTimeBound(v, false)).toBeNull();
  });
});

describe('ListChatsQuery / ListAllMessagesQuery', () => {
  it('default as GET messages does: offset 0, limit 2000', () => {
    expect(ListChatsQuery.parse({})).toEqual({ offset: 0, limit: 2000 });
    expect(ListAllMessagesQuery.parse({})).toEqual({ offset: 0, limit: 2000 });
  });

  it('refuses limit 2001 with the spec 4.1 text on the limit key', () => {
    const r = ListChatsQuery.safeParse({ limit: '2001' });
    expect(r.error?.issues.map((i) => [i.path, i.message])).toEqual([[['limit'], 'limit should be less than or equal to 2000']]);
  });

  it('takes chat_type user|group|business only', () => {
    expect(ListChatsQuery.parse({ chat_type: 'group' }).chat_type).toBe('group');
    expect(ListChatsQuery.safeParse({ chat_type: 'channel' }).error?.issues[0].path).toEqual(['chat_type']);
  });

  it('normalizes the time bounds and refuses an end before the start on end_time', () => {
    expect(ListAllMessagesQuery.parse({ start_time: '2025-04-25', end_time: '2025-04-25' })).toMatchObject({
      start_time: '2025-04-25T00:00:00.000Z',
      end_time: '2025-04-25T23:59:59.999Z',
    });
    const r = ListAllMessagesQuery.safeParse({ start_time: '2025-04-26', end_time: '2025-04-25' });
    expect(r.error?.issues.map((i) => i.path)).toEqual([['end_time']]);
    expect(ListChatsQuery.safeParse({ start_time: 'soon' }).error?.issues.map((i) => i.path)).toEqual([['start_time']]);
  });
});

describe('pagePositions', () => {
  it('gives 1-based positions, and offset..offset for an empty page', () => {
    expect(pagePositions(0, 8)).toEqual({ from: 1, to: 8, count: 8 });
    expect(pagePositions(50, 0)).toEqual({ from: 50, to: 50, count: 0 });
  });
});
