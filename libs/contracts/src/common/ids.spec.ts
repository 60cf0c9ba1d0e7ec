import { ChatIdSchema, contactId, GroupChatIdSchema, normalizeChatId, parsePhoneRef, XPhoneSchema } from './ids';

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe('parsePhoneRef', () => {
  it('reads phone digits as the contact id of that number', () => {
    expect(parsePhoneRef('14155550100')).toEqual({ kind: 'digits', org_phone: '14155550100@c.us' });
  });

  it('reads a phone_id of the form phone-<12+ lowercase alphanumerics>', () => {
    expect(parsePhoneRef('phone-abc123def456')).toEqual({ kind: 'phone_id', phone_id: 'phone-abc123def456' });
    expect(parsePhoneRef('phone-0123456789abcdefxyz')).toEqual({ kind: 'phone_id', phone_id: 'phone-0123456789abcdefxyz' });
  });

  it.each([
    ['spaces inside the number', '1415 555 0100'],
    ['a leading +', '+14155550100'],
    ['dashes', '1-415-555-0100'],
    ['a contact id rather than digits', '14155550100@c.us'],
    ['an uppercase phone id', 'phone-ABC123DEF456'],
    ['a phone id that is too short (11 characters)', 'phone-abc123def45'],
    ['a phone id with symbols', 'phone-abc123_def456'],
    ['a bare prefix', 'phone-'],
    ['letters', 'my phone'],
    ['an empty value', ''],
  ])('rejects %s', (_what, value) => {
    expect(parsePhoneRef(value)).toBeNull();
  });
});

describe('normalizeChatId', () => {
  it('turns bare digits into the individual chat id <digits>@c.us', () => {
    expect(normalizeChatId('14155550123')).toBe('14155550123@c.us');
  });

  it('keeps <digits>@c.us as it is', () => {
    expect(normalizeChatId('14155550123@c.us')).toBe('14155550123@c.us');
  });

  it('keeps group ids ending with @g.us as given', () => {
    expect(normalizeChatId('120363041234567890@g.us')).toBe('120363041234567890@g.us');
    expect(normalizeChatId('14155550123-1600000000@g.us')).toBe('14155550123-1600000000@g.us');
  });

  it.each(['', 'hello', '+14155550123', '1415 5550123', '14155550123@s.whatsapp.net', '@g.us', '@c.us', '14155550123@c.us@c.us'])(
    'gives null for %p',
    (value) => {
      expect(normalizeChatId(value)).toBeNull();
    },
  );
});

describe('ChatIdSchema', () => {
  it('outputs the normalized chat id', () => {
    expect(ChatIdSchema.parse('14155550123')).toBe('14155550123@c.us');
    expect(ChatIdSchema.parse('14155550123@c.us')).toBe('14155550123@c.us');
    expect(ChatIdSchema.parse('120363041234567890@g.us')).toBe('120363041234567890@g.us');
  });

  it('rejects an empty id as empty', () => {
    expect(messagesOf(ChatIdSchema.safeParse(''))).toEqual(['chat_id must not be empty']);
  });

  it('rejects junk saying which forms are accepted', () => {
    const result = ChatIdSchema.safeParse('not-a-chat');
    expect(result.success).toBe(false);
    expect(messagesOf(result)).toEqual(['chat_id must be a number with optional @c.us, or a group id ending with @g.us']);
  });
});

describe('XPhoneSchema', () => {
  it('accepts digits and phone ids unchanged', () => {
    expect(XPhoneSchema.parse('14155550100')).toBe('14155550100');
    expect(XPhoneSchema.parse('phone-abc123def456')).toBe('phone-abc123def456');
  });

  it('rejects an empty value as empty', () => {
    expect(messagesOf(XPhoneSchema.safeParse(''))).toContain('x-phone must not be empty');
  });

  it('rejects a malformed value naming both accepted forms', () => {
    expect(messagesOf(XPhoneSchema.safeParse('+1 415 555 0100'))).toEqual([
      'x-phone must be phone digits (country code + number) or a phone_id of the form phone-<id>',
    ]);
  });
});

describe('GroupChatIdSchema', () => {
  it('accepts a group id', () => {
    expect(GroupChatIdSchema.parse('120363041234567890@g.us')).toBe('120363041234567890@g.us');
  });

  it.each(['14155550123@c.us', '14155550123', 'group'])('rejects %p as not a group id', (value) => {
    expect(messagesOf(GroupChatIdSchema.safeParse(value))).toEqual(['chat_id must be a group id ending with @g.us']);
  });

  it('rejects an empty id as empty', () => {
    expect(messagesOf(GroupChatIdSchema.safeParse(''))).toContain('chat_id must not be empty');
  });
});

describe('contactId', () => {
  it('appends @c.us to digits', () => {
    expect(contactId('14155550100')).toBe('14155550100@c.us');
  });

  it('leaves an existing contact id alone', () => {
    expect(contactId('14155550100@c.us')).toBe('14155550100@c.us');
  });
});
