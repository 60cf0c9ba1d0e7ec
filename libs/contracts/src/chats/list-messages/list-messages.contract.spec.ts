import { ListChatMessagesParams, ListChatMessagesQuery, MAX_MESSAGES_LIMIT } from './list-messages.contract';

const issuesFor = (input: unknown) => {
  const result = ListChatMessagesQuery.safeParse(input);
  expect(result.success).toBe(false);
  return result.error?.issues ?? [];
};

describe('ListChatMessagesQuery', () => {
  it('defaults offset to 0 and limit to 2000', () => {
    expect(ListChatMessagesQuery.parse({})).toEqual({ offset: 0, limit: 2000 });
    expect(MAX_MESSAGES_LIMIT).toBe(2000);
  });

  it('coerces query strings to numbers', () => {
    expect(ListChatMessagesQuery.parse({ offset: '10', limit: '50' })).toEqual({ offset: 10, limit: 50 });
  });

  it('accepts a limit of 2000 (the default must itself be valid)', () => {
    expect(ListChatMessagesQuery.parse({ limit: '2000' }).limit).toBe(2000);
  });

  it('rejects a limit of 2001 on the limit key, saying the bound', () => {
    const issues = issuesFor({ limit: '2001' });
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toEqual(['limit']);
    expect(issues[0].message).toContain('less than or equal to 2000');
  });

  it.each([
    ['zero', '0'],
    ['negative', '-5'],
    ['not a whole number', '1.5'],
    ['empty', ''],
    ['blank', '  '],
    ['not a number', 'abc'],
  ])('rejects a %s limit', (_what, limit) => {
    expect(issuesFor({ limit }).map((i) => i.path)).toEqual([['limit']]);
  });

  it.each([
    ['negative', '-1'],
    ['not a whole number', '0.5'],
    ['empty', ''],
  ])('rejects a %s offset', (_what, offset) => {
    expect(issuesFor({ offset }).map((i) => i.path)).toEqual([['offset']]);
  });
});

describe('ListChatMessagesParams', () => {
  it('normalizes an individual chat id to <digits>@c.us', () => {
    expect(ListChatMessagesParams.parse({ chat_id: '14155550123' })).toEqual({ chat_id: '14155550123@c.us' });
    expect(ListChatMessagesParams.parse({ chat_id: '14155550123@c.us' })).toEqual({ chat_id: '14155550123@c.us' });
  });

  it('keeps a group chat id', () => {
    expect(ListChatMessagesParams.parse({ chat_id: '120363041234567890@g.us' })).toEqual({ chat_id: '120363041234567890@g.us' });
  });

  it('rejects a chat id of neither form', () => {
    expect(ListChatMessagesParams.safeParse({ chat_id: 'hello@c.us' }).success).toBe(false);
  });
});
