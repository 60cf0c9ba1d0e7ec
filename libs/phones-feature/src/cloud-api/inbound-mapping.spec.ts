import { IngestMessageSchema } from '@mapi/contracts';
import { mapCallback } from './inbound-mapping';

const NUMBER = '106540352242922';
const change = (value: Record<string, unknown>, phoneNumberId = NUMBER, field = 'messages') => ({
  field,
  value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550100000', phone_number_id: phoneNumberId }, ...value },
});
const payload = (...changes: unknown[]) => ({ object: 'whatsapp_business_account', entry: [{ id: '1', changes }] });
const msg = (type: string, content: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  from: '16505551234',
  id: `wamid.${type}`,
  timestamp: '1700000000',
  type,
  [type]: content,
  ...extra,
});

describe('mapCallback (Meta webhook payload → what the phone saw)', () => {
  it('maps every message type of this slice to a valid ingest message, with the sender, push name, time and quoted id', () => {
    const messages = [
      msg('text', { body: 'hello' }, { context: { from: '16505551234', id: 'wamid.quoted' } }),
      msg('image', { id: 'media-1', mime_type: 'image/jpeg', sha256: 'abc', caption: 'a photo' }),
      msg('audio', { id: 'media-2', mime_type: 'audio/ogg', voice: true }),
      msg('video', { id: 'media-3', mime_type: 'video/mp4' }),
      msg('document', { id: 'media-4', mime_type: 'application/pdf', filename: 'a.pdf', caption: 'the invoice' }),
      msg('sticker', { id: 'media-5', mime_type: 'image/webp', animated: false }),
      msg('location', { latitude: 37.48, longitude: -122.14, name: 'Acme', address: '1 Main St' }),
      msg('interactive', { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes please' } }),
      msg('interactive', { type: 'list_reply', list_reply: { id: 'r1', title: 'Red', description: 'the red one' } }),
      msg('button', { payload: 'STOP', text: 'Stop promotions' }),
      msg('contacts', {}, { contacts: [{ name: { formatted_name: 'Ann' } }] }),
      msg('unsupported', {}),
    ];
    const out = mapCallback(payload(change({ contacts: [{ profile: { name: 'Kerry' }, wa_id: '16505551234' }], messages })), NUMBER);
    expect(out.messages.map((m) => [m.message_type, m.body])).toEqual([
      ['chat', 'hello'],
      ['image', 'a photo'],
      ['ptt', null],
      ['video', null],
      ['document', 'the invoice'],
      ['sticker', null],
      ['location', 'Acme, 1 Main St (37.48,-122.14)'],
      ['buttons_response', 'Yes please'],
      ['list_response', 'Red'],
      ['buttons_response', 'Stop promotions'],
      ['vcard', 'Ann'],
      ['unknown', null],
    ]);
    for (const m of out.messages) expect(IngestMessageSchema.safeParse(m).success).toBe(true);
    expect(out.messages[0]).toMatchObject({
      chat_id: '16505551234@c.us',
      unique_id: 'wamid.text',
      from_me: false,
      sender_phone: '16505551234@c.us',
      sender_name: 'Kerry',
      timestamp: '2023-11-14T22:13:20.000Z',
      ack: 1,
      quoted_message_id: 'wamid.quoted',
    });
    expect(out.media).toEqual([
      { wamid: 'wamid.image', media_id: 'media-1', mime_type: 'image/jpeg', sha256: 'abc', filename: null },
      { wamid: 'wamid.audio', media_id: 'media-2', filename: null, mime_type: 'audio/ogg', sha256: null },
      { wamid: 'wamid.video', media_id: 'media-3', filename: null, mime_type: 'video/mp4', sha256: null },
      { wamid: 'wamid.document', media_id: 'media-4', mime_type: 'application/pdf', sha256: null, filename: 'a.pdf' },
      { wamid: 'wamid.sticker', media_id: 'media-5', filename: null, mime_type: 'image/webp', sha256: null },
    ]);
  });

  it('maps a reaction to the message it names, and one without emoji to a reaction taken back', () => {
    const out = mapCallback(
      payload(
        change({
          messages: [
            msg('reaction', { message_id: 'wamid.target', emoji: '👍' }, { id: 'wamid.r1' }),
            msg('reaction', { message_id: 'wamid.target' }, { id: 'wamid.r2' }),
          ],
        }),
      ),
      NUMBER,
    );
    expect(out.messages).toEqual([]);
    expect(out.reactions).toEqual([
      {
        chat_id: '16505551234@c.us',
        target_wamid: 'wamid.target',
        reaction: { reaction_id: 'wamid.r1', sender_phone: '16505551234@c.us', reaction: '👍', timestamp: '2023-11-14T22:13:20.000Z' },
      },
      expect.objectContaining({ reaction: expect.objectContaining({ reaction_id: 'wamid.r2', reaction: '' }) }),
    ]);
  });

  it('maps statuses to acks (sent 1, delivered 2, read 3, failed -1) with the errors of a failed one; unknown statuses are left out', () => {
    const status = (id: string, s: string, errors?: unknown[]) => ({
      id,
      status: s,
      timestamp: '1700000001',
      recipient_id: '16505551234',
      errors,
    });
    const out = mapCallback(
      payload(
        change({
          statuses: [
            status('w1', 'read'),
            status('w1', 'sent'),
            status('w1', 'delivered'),
            status('w2', 'failed', [{ code: 131047, title: 'Re-engagement message', error_data: { details: 'more than 24 hours' } }]),
            status('w3', 'deleted'),
          ],
        }),
      ),
      NUMBER,
    );
    expect(out.statuses.map((s) => [s.wamid, s.ack])).toEqual([
      ['w1', 3],
      ['w1', 1],
      ['w1', 2],
      ['w2', -1],
    ]);
    expect(out.statuses[0]).toMatchObject({ chat_id: '16505551234@c.us', at: 1_700_000_001_000, errors: [] });
    expect(out.statuses[3].errors).toEqual([
      { code: 131047, title: 'Re-engagement message', message: null, details: 'more than 24 hours' },
    ]);
  });

  it("leaves out another number's changes, other fields, and malformed pieces instead of failing", () => {
    const out = mapCallback(
      payload(
        change({ messages: [msg('text', { body: 'not ours' })] }, '999'),
        change({ messages: [msg('text', { body: 'x' })] }, NUMBER, 'account_update'),
        change({ messages: [{ id: 'no-sender' }, 'junk', null], statuses: [{ status: 'read' }] }),
      ),
      NUMBER,
    );
    expect(out).toMatchObject({ messages: [], statuses: [], reactions: [], media: [], skipped: 2 });
    for (const junk of [null, 'x', 42, { entry: 'x' }, { entry: [{ changes: [null] }] }])
      expect(mapCallback(junk, NUMBER).messages).toEqual([]);
  });
});
