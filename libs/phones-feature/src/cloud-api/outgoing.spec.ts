import { graphTemplate } from '@mapi/testing';
import { GraphError, SendRefused, classifyGraphError, refusalReason } from './graph-errors';
import { graphMessageOf, recipientOf, replyTarget } from './outgoing';

describe('Cloud API sends', () => {
  it('builds text, replies (context) and media by link as the Graph API takes them', () => {
    expect(graphMessageOf('15551234567', { text: 'hi' }, null)).toEqual({
      recipient_type: 'individual',
      to: '15551234567',
      type: 'text',
      text: { body: 'hi', preview_url: true },
    });
    expect(graphMessageOf('1555', { text: 'yes', hide_url_preview: true }, 'wamid.q')).toMatchObject({
      context: { message_id: 'wamid.q' },
      text: { body: 'yes', preview_url: false },
    });
    const media = (mimetype: string) => ({ filename: 'f', mimetype, url: 'https://x/f' });
    expect(graphMessageOf('1555', { text: 'look', media: media('image/png') }, null)).toMatchObject({
      type: 'image',
      image: { link: 'https://x/f', caption: 'look' },
    });
    expect(graphMessageOf('1555', { media: media('application/pdf') }, null)).toMatchObject({
      type: 'document',
      document: { link: 'https://x/f', filename: 'f' },
    });
    expect(graphMessageOf('1555', { text: 'no caption on audio', media: media('audio/ogg') }, null)).toEqual({
      recipient_type: 'individual',
      to: '1555',
      type: 'audio',
      audio: { link: 'https://x/f' },
    });
  });

  it('sends an approved template with its language and body parameters', () => {
    expect(graphMessageOf('1555', { template: { name: 'order_update', language: 'en_US', parameters: ['Ann', '#42'] } }, null)).toEqual({
      recipient_type: 'individual',
      to: '1555',
      type: 'template',
      template: graphTemplate('order_update', 'en_US', ['Ann', '#42']),
    });
    // Meta's shape, spelled out once here (the e2e compares with the same builder)
    expect(graphTemplate('order_update', 'en_US', ['Ann'])).toEqual({
      name: 'order_update',
      language: { code: 'en_US' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ann' }] }],
    });
    expect(graphMessageOf('1555', { template: { name: 'hello_world', language: 'en' } }, null)).toMatchObject({
      template: graphTemplate('hello_world', 'en'),
    });
  });

  it('refuses what the Cloud API cannot send, naming it', () => {
    expect(() => graphMessageOf('1', { poll: { name: 'q', options: ['a', 'b'], allow_multiple: false } }, null)).toThrow(/no polls/);
    expect(() => graphMessageOf('1', { media: { filename: 'f', mimetype: 'image/png', filedata: 'AAAA' } }, null)).toThrow(SendRefused);
    expect(graphMessageOf('1', { media: { filename: 'f', mimetype: 'image/png', filedata: 'AAAA' } }, null, 'up-1')).toMatchObject({
      type: 'image',
      image: { id: 'up-1' },
    });
    expect(() => graphMessageOf('1', {}, null)).toThrow(/no text/);
    expect(() => recipientOf('120363025246125486@g.us')).toThrow(/individual chats only/);
    expect(recipientOf('15551234567@c.us')).toBe('15551234567');
    expect(replyTarget('true_15551234567@c.us_3EB0ABC')).toEqual({ unique_id: '3EB0ABC', from_me: true });
    expect(replyTarget('wamid.XYZ')).toEqual({ unique_id: 'wamid.XYZ', from_me: false });
    expect(replyTarget('false_15551234567@c.us_wamid.HBg_L9x_Q')).toEqual({ unique_id: 'wamid.HBg_L9x_Q', from_me: false });
  });

  it("classifies Meta's codes: rate limits throttle, transient failures retried, 131047 and bad requests refused with the reason, a refused token disconnects", () => {
    const e = (status: number, code: number | null) => new GraphError(status, code, null, 'm');
    for (const code of [130429, 131056, 80007, 4, 131048]) expect(classifyGraphError(e(400, code))).toBe('throttle');
    expect(classifyGraphError(e(429, null))).toBe('throttle');
    for (const code of [1, 2, 131000, 131016, 133004]) expect(classifyGraphError(e(400, code))).toBe('retry');
    expect(classifyGraphError(e(500, null))).toBe('retry');
    expect(classifyGraphError(e(0, null))).toBe('retry');
    expect(classifyGraphError(e(401, 190))).toBe('auth');
    for (const code of [131047, 100, 131026, 132000]) expect(classifyGraphError(e(400, code))).toBe('refused');
    expect(refusalReason(e(400, 131047))).toMatch(/24 hours.*template.*131047/);
    expect(refusalReason(new GraphError(400, 131026, 'not on WhatsApp', 'Message undeliverable'))).toBe(
      'The Cloud API refused the message: Message undeliverable (not on WhatsApp) (Meta error 131026)',
    );
  });
});
