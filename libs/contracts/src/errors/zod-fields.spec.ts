import { z } from 'zod';
import { ListChatMessagesParams, ListChatMessagesQuery } from '../chats/list-messages/list-messages.contract';
import { XPhoneSchema } from '../common/ids';
import { issuesToFields } from './zod-fields';

const issuesOf = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected the input to be invalid');
  return result.error.issues;
};

describe('issuesToFields: body', () => {
  const Body = z.object({
    participants: z.array(z.string().min(1, 'participant must not be empty')).min(1),
    attachment: z.object({ filename: z.string({ error: 'filename is required' }) }).optional(),
    question: z.string({ error: 'question is required' }),
  });

  it('keys each issue as body.<path>, nested paths joined with dots', () => {
    const raw = { participants: ['14155550100', ''], attachment: {} };
    const fields = issuesToFields('body', issuesOf(Body, raw), raw);
    expect(fields).toEqual({
      'body.participants.1': { message: 'participant must not be empty' },
      'body.attachment.filename': { message: 'filename is required' },
      'body.question': { message: 'question is required' },
    });
  });

  it('keys an issue about the body as a whole as `body`', () => {
    const fields = issuesToFields('body', issuesOf(Body, 'not an object'), 'not an object');
    expect(Object.keys(fields)).toEqual(['body']);
    expect(fields.body.message).toEqual(expect.any(String));
  });

  it('does not echo body values', () => {
    const raw = { participants: [], question: 'q' };
    const fields = issuesToFields('body', issuesOf(Body, raw), raw);
    expect(fields['body.participants']).not.toHaveProperty('value');
  });
});

describe('issuesToFields: query, params, headers', () => {
  it('keys a query issue by the bare parameter name and echoes a numeric value as a number', () => {
    const raw = { limit: '2001' };
    expect(issuesToFields('query', issuesOf(ListChatMessagesQuery, raw), raw)).toEqual({
      limit: { message: 'limit should be less than or equal to 2000', value: 2001 },
    });
  });

  it('echoes a non-numeric value as given', () => {
    const raw = { offset: 'ten' };
    const fields = issuesToFields('query', issuesOf(ListChatMessagesQuery, raw), raw);
    expect(fields.offset).toEqual({ message: expect.any(String), value: 'ten' });
  });

  it('echoes an empty value as the empty string, not as 0', () => {
    const raw = { limit: '' };
    expect(issuesToFields('query', issuesOf(ListChatMessagesQuery, raw), raw).limit.value).toBe('');
  });

  it('gives null as the value of a missing parameter', () => {
    const Query = z.object({ broadcast_id: z.string({ error: 'broadcast_id is required' }) });
    expect(issuesToFields('query', issuesOf(Query, {}), {})).toEqual({
      broadcast_id: { message: 'broadcast_id is required', value: null },
    });
  });

  it('keys path parameters by their bare name', () => {
    const raw = { chat_id: 'not-a-chat' };
    expect(issuesToFields('params', issuesOf(ListChatMessagesParams, raw), raw)).toEqual({
      chat_id: { message: 'chat_id must be a number with optional @c.us, or a group id ending with @g.us', value: 'not-a-chat' },
    });
  });

  it('keys headers by their bare name', () => {
    const Headers = z.object({ 'x-phone': XPhoneSchema });
    const raw = { 'x-phone': 'phone-UPPER' };
    expect(issuesToFields('headers', issuesOf(Headers, raw), raw)).toEqual({
      'x-phone': { message: expect.stringContaining('x-phone must be'), value: 'phone-UPPER' },
    });
  });
});

describe('issuesToFields: several issues on one key', () => {
  const Name = z.string().min(5, 'first: too short').regex(/^a/, 'second: must start with a');

  it('keeps the first issue of a body field', () => {
    const raw = { name: 'b' };
    const issues = issuesOf(z.object({ name: Name }), raw);
    expect(issues).toHaveLength(2);
    expect(issuesToFields('body', issues, raw)).toEqual({ 'body.name': { message: 'first: too short' } });
  });

  it('keeps the first issue of a query parameter', () => {
    const raw = { name: 'b' };
    const issues = issuesOf(z.object({ name: Name }), raw);
    expect(issuesToFields('query', issues, raw)).toEqual({ name: { message: 'first: too short', value: 'b' } });
  });
});
