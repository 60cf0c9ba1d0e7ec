import { loadOutgoingMedia, mediaKindOf, quotedFor, toMessageContent } from './outgoing-content';

const response = (body: string, headers: Record<string, string> = {}, status = 200) => new Response(body, { status, headers });

describe('outgoing media', () => {
  it('reads base64 (with or without a data: prefix) and refuses it above the limit or empty', async () => {
    expect(await loadOutgoingMedia({ filename: 'a', mimetype: 'text/plain', filedata: 'data:text/plain;base64,aGVsbG8=' }, 10)).toEqual(
      Buffer.from('hello'),
    );
    await expect(loadOutgoingMedia({ filename: 'a', mimetype: 'text/plain', filedata: 'aGVsbG8=' }, 4)).rejects.toThrow(
      'larger than 4 bytes',
    );
    await expect(loadOutgoingMedia({ filename: 'a', mimetype: 'text/plain', filedata: '' }, 4)).rejects.toThrow('url or filedata');
  });

  it('downloads a URL, counting bytes even when Content-Length is absent or wrong', async () => {
    const ok = jest.fn(async () => response('12345'));
    expect(await loadOutgoingMedia({ filename: 'a', mimetype: 'x/y', url: 'https://files.example/a' }, 5, ok as never)).toEqual(
      Buffer.from('12345'),
    );
    await expect(loadOutgoingMedia({ filename: 'a', mimetype: 'x/y', url: 'https://files.example/a' }, 4, ok as never)).rejects.toThrow(
      'larger than 4 bytes',
    );
    const declared = async () => response('1', { 'content-length': '999' });
    await expect(
      loadOutgoingMedia({ filename: 'a', mimetype: 'x/y', url: 'https://files.example/a' }, 4, declared as never),
    ).rejects.toThrow('larger than 4 bytes');
    await expect(
      loadOutgoingMedia({ filename: 'a', mimetype: 'x/y', url: 'https://files.example/a' }, 4, (async () =>
        response('', {}, 404)) as never),
    ).rejects.toThrow('answered 404');
    await expect(loadOutgoingMedia({ filename: 'a', mimetype: 'x/y', url: 'file:///etc/passwd' }, 4, ok as never)).rejects.toThrow(
      'http(s)',
    );
  });

  it('chooses the media kind from the type, else the mimetype', () => {
    expect(mediaKindOf({ type: 'document', mimetype: 'image/png' })).toBe('document');
    expect(mediaKindOf({ mimetype: 'image/png' })).toBe('image');
    expect(mediaKindOf({ mimetype: 'image/webp' })).toBe('sticker');
    expect(mediaKindOf({ mimetype: 'video/mp4' })).toBe('video');
    expect(mediaKindOf({ type: 'ptt', mimetype: 'audio/ogg' })).toBe('audio');
    expect(mediaKindOf({ mimetype: 'application/pdf' })).toBe('document');
  });

  it('builds documents with their file name, audio as voice notes when asked, and refuses empty sends', async () => {
    const load = async () => Buffer.from('x');
    expect(
      await toMessageContent({ text: 'invoice', media: { filename: 'i.pdf', mimetype: 'application/pdf', filedata: 'eA==' } }, load),
    ).toEqual({
      document: Buffer.from('x'),
      mimetype: 'application/pdf',
      fileName: 'i.pdf',
      caption: 'invoice',
    });
    expect(
      await toMessageContent({ media: { type: 'ptt', filename: 'v.ogg', mimetype: 'audio/ogg', filedata: 'eA==' } }, load),
    ).toMatchObject({ audio: Buffer.from('x'), ptt: true });
    expect(await toMessageContent({ text: 'https://x.example', hide_url_preview: false }, load)).toEqual({
      text: 'https://x.example',
      linkPreview: undefined,
    });
    await expect(toMessageContent({}, load)).rejects.toThrow('needs text, media or a poll');
  });

  it('quotes by message_id or unique_id, preferring the recent message', () => {
    expect(quotedFor('1@c.us', 'true_1@c.us_ABC', () => undefined)).toEqual({
      key: { remoteJid: '1@s.whatsapp.net', id: 'ABC', fromMe: true },
      message: { conversation: '' },
    });
    expect(quotedFor('1@c.us', 'ABC', () => undefined).key).toEqual({ remoteJid: '1@s.whatsapp.net', id: 'ABC', fromMe: false });
    const recent = { key: { id: 'ABC' }, message: { conversation: 'original' } };
    expect(quotedFor('1@c.us', 'ABC', (id) => (id === 'ABC' ? recent : undefined))).toBe(recent);
  });
});
