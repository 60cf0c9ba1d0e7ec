import { IsoWithOffset, MessageSchema } from '@mapi/contracts';
import { Prisma } from '@mapi/db';
import { isoMillis, isoSeconds, mapMessage } from './map-message';
import type { MessageRow } from '../rows/message-row';

const ORG = '5b0c3f0e-4a47-4c5e-9a57-1f5f0d7a0c11';
const CHAT = '14155550123@c.us';
const UNIQUE = '3EB0A1B2C3D4E5F60718';

/** A stored message with every column of the Message model except id and phone_id, all filled. */
function fullRow(overrides: Partial<MessageRow> = {}): MessageRow {
  return {
    org_id: ORG,
    chat_id: CHAT,
    message_id: `false_${CHAT}_${UNIQUE}`,
    unique_id: UNIQUE,
    org_phone: '14155550100@c.us',
    sender_phone: CHAT,
    from_me: false,
    body: 'look at this',
    prev_body: 'look',
    message_type: 'image',
    timestamp: new Date('2024-05-01T10:00:00.000Z'),
    updated_at: new Date('2024-05-01T10:00:05.123Z'),
    ack: 3,
    delivery_info: {
      delivered_count: 1,
      read_count: 1,
      pending: [],
      delivered: { '14155550123@c.us': 1714557601000 },
      read: { '14155550123@c.us': 1714557602000 },
    },
    mentioned_ids: ['14155550124@c.us'],
    media: {
      dimensions: { ar: 1.5, height: 800, width: 1200 },
      filename: 'photo.jpg',
      mimetype: 'image/jpeg',
      path: 'https://media.example.com/app/media/photo.jpg',
      size: 123456,
      thumbnail: 'https://media.example.com/app/media/photo-thumb.jpg',
    },
    fts: 'look at this',
    broadcast: false,
    sent_message_id: '0b7f6c9e-1111-4a4a-9b9b-123456789abc',
    author: '14155550123@c.us',
    broadcast_id: 'b-1',
    device_type: 'android',
    duration: '12',
    flag_metadata: { reason: 'spam' },
    flag_response_time: 1.5,
    flag_status: true,
    forwarding_score: 2,
    from: CHAT,
    has_media: true,
    has_quoted_msg: false,
    has_reaction: false,
    interactive: { buttons: [] },
    invite_v4: null,
    is_deleted: false,
    is_ephemeral: false,
    is_forwarded: true,
    is_gif: false,
    is_starred: false,
    is_status: false,
    links: [{ link: 'https://example.com', isSuspicious: false }],
    location: { latitude: 1, longitude: 2 },
    media_key: 'key',
    message_ticket_id: 't-1',
    order_id: 'o-1',
    performed_by: 'agent@example.com',
    poll_info: { pollName: 'Lunch?' },
    poll_results: { yes: 1 },
    quoted_message_id: `true_${CHAT}_3EB0FFFF`,
    raw_data: { any: 'thing' },
    to: '14155550100@c.us',
    token: 'tok',
    vcards: ['BEGIN:VCARD\nFN:Ann\nEND:VCARD'],
    ...overrides,
  };
}

describe('mapMessage', () => {
  it('the row used here has every stored column but id and phone_id', () => {
    const columns = Object.keys(Prisma.MessageScalarFieldEnum).filter((c) => c !== 'id' && c !== 'phone_id');
    expect(Object.keys(fullRow()).sort()).toEqual(columns.sort());
  });

  it('maps a full row to an object that passes the strict message schema (spec 2.1)', () => {
    const message = mapMessage(fullRow());
    const parsed = MessageSchema.safeParse(message);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(Object.keys(message).sort()).toEqual(Object.keys(MessageSchema.shape).sort());
  });

  it('also passes the schema for a text message whose nullable columns are all null', () => {
    const nullable: (keyof MessageRow)[] = [
      'body',
      'prev_body',
      'media',
      'fts',
      'broadcast',
      'sent_message_id',
      'author',
      'broadcast_id',
      'device_type',
      'duration',
      'flag_metadata',
      'flag_response_time',
      'flag_status',
      'forwarding_score',
      'from',
      'has_media',
      'has_quoted_msg',
      'has_reaction',
      'interactive',
      'invite_v4',
      'is_deleted',
      'is_ephemeral',
      'is_forwarded',
      'is_gif',
      'is_starred',
      'is_status',
      'links',
      'location',
      'media_key',
      'message_ticket_id',
      'order_id',
      'performed_by',
      'poll_info',
      'poll_results',
      'quoted_message_id',
      'raw_data',
      'to',
      'token',
      'vcards',
    ];
    const row = fullRow({
      ...Object.fromEntries(nullable.map((column) => [column, null])),
      message_type: 'chat',
      ack: 0,
      mentioned_ids: [],
      delivery_info: { delivered_count: 0, read_count: 0, pending: [] },
    });
    const message = mapMessage(row);
    expect(MessageSchema.safeParse(message).error?.issues ?? []).toEqual([]);
    for (const column of nullable) expect(message[column]).toBeNull();
  });

  it('copies the stored values of the plain fields', () => {
    const row = fullRow();
    const message = mapMessage(row);
    expect(message).toMatchObject({
      chat_id: row.chat_id,
      org_id: row.org_id,
      org_phone: row.org_phone,
      sender_phone: row.sender_phone,
      body: row.body,
      fts: row.fts,
      is_forwarded: true,
      forwarding_score: 2,
      flag_response_time: 1.5,
      delivery_info: row.delivery_info,
      media: row.media,
      mentioned_ids: row.mentioned_ids,
      sent_message_id: row.sent_message_id,
    });
  });

  it.each([
    [-1, '-1'],
    [0, '0'],
    [2, '2'],
    [4, '4'],
  ])('returns ack %p as the numeric string %p', (ack, expected) => {
    expect(mapMessage(fullRow({ ack })).ack).toBe(expected);
  });

  it('writes timestamp as YYYY-MM-DDTHH:mm:ss+00:00 and updated_at with milliseconds', () => {
    const message = mapMessage(
      fullRow({ timestamp: new Date('2024-05-01T10:00:07.000Z'), updated_at: new Date('2024-05-01T10:00:08.045Z') }),
    );
    expect(message.timestamp).toBe('2024-05-01T10:00:07+00:00');
    expect(message.updated_at).toBe('2024-05-01T10:00:08.045+00:00');
  });

  it('formats both forms so they parse back to the same instant', () => {
    const at = new Date('2025-12-31T23:59:59.999Z');
    expect(isoSeconds(at)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    expect(isoMillis(at)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
    expect(IsoWithOffset.safeParse(isoSeconds(at)).success).toBe(true);
    expect(IsoWithOffset.safeParse(isoMillis(at)).success).toBe(true);
    expect(new Date(isoMillis(at)).getTime()).toBe(at.getTime());
    expect(new Date(isoSeconds(at)).getTime()).toBe(new Date('2025-12-31T23:59:59Z').getTime());
  });

  it('builds the id object from the row (serialized equals message_id)', () => {
    const row = fullRow({ from_me: true, message_id: `true_${CHAT}_${UNIQUE}` });
    const message = mapMessage(row);
    expect(message.id).toEqual({ from_me: true, id: UNIQUE, remote: CHAT, serialized: `true_${CHAT}_${UNIQUE}` });
    expect(message.message_id).toBe(message.id.serialized);
    expect(message.from_me).toBe(message.id.from_me);
  });

  it('returns vcards stored as a JSON array of strings as a string array', () => {
    expect(mapMessage(fullRow({ vcards: ['A', 'B'] })).vcards).toEqual(['A', 'B']);
    expect(mapMessage(fullRow({ vcards: [] })).vcards).toEqual([]);
  });

  it.each([
    ['null', null],
    ['an object', { vcard: 'A' }],
    ['a string', 'BEGIN:VCARD'],
    ['a number', 3],
  ])('returns vcards stored as %s as null', (_what, vcards) => {
    expect(mapMessage(fullRow({ vcards })).vcards).toBeNull();
  });

  it('keeps a null media as null', () => {
    const message = mapMessage(fullRow({ media: null, message_type: 'chat' }));
    expect(message.media).toBeNull();
    expect(MessageSchema.safeParse(message).success).toBe(true);
  });
});
