import { fillTemplate, toOutgoingContent } from './outgoing-content';

describe('toOutgoingContent', () => {
  it('maps text, media, reply, poll and options to the session command', () => {
    expect(
      toOutgoingContent({
        message: 'hi',
        media: { type: 'image', url: 'https://x.example/a.jpg', filename: 'a.jpg', mimetype: 'image/jpeg' },
        reply_to: 'true_1@c.us_ABC',
        poll: { pollName: 'Lunch?', pollOptions: ['yes', 'no'], options: { allowMultipleAnswers: true } },
        options: { hide_url_preview: true },
      }),
    ).toEqual({
      text: 'hi',
      media: { type: 'image', url: 'https://x.example/a.jpg', filename: 'a.jpg', mimetype: 'image/jpeg' },
      reply_to: 'true_1@c.us_ABC',
      poll: { name: 'Lunch?', options: ['yes', 'no'], allow_multiple: true },
      hide_url_preview: true,
    });
  });

  it('leaves out what was not sent', () => {
    expect(toOutgoingContent({ message: 'only text' })).toEqual({ text: 'only text' });
    expect(toOutgoingContent({ poll: { pollName: 'Q', pollOptions: ['a', 'b'] } })).toEqual({
      poll: { name: 'Q', options: ['a', 'b'], allow_multiple: false },
    });
  });
});

describe('fillTemplate', () => {
  it('replaces known names and keeps unknown ones', () => {
    expect(fillTemplate('Hi {{name}}, {{ var1 }} and {{missing}}', { name: 'Ana', var1: 'x' })).toBe('Hi Ana, x and {{missing}}');
  });
  it('does not read inherited properties', () => {
    expect(fillTemplate('{{constructor}}', {})).toBe('{{constructor}}');
  });
  it('keeps the text without values', () => {
    expect(fillTemplate('Hi {{name}}', undefined)).toBe('Hi {{name}}');
  });
});
