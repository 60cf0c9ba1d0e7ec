import { deliveryInfo, ftsOf, ingestRow, nextAck } from './ingest-rows';

describe('ingest rows', () => {
  it('moves acks only upwards; -1 only before delivery', () => {
    expect(nextAck(0, 1)).toBe(1);
    expect(nextAck(1, 3)).toBe(3);
    expect(nextAck(3, 2)).toBeNull();
    expect(nextAck(2, 2)).toBeNull();
    expect(nextAck(1, -1)).toBe(-1);
    expect(nextAck(2, -1)).toBeNull();
    expect(nextAck(-1, -1)).toBeNull();
    expect(nextAck(-1, 2)).toBe(2);
  });

  it('derives fts tokens from the body', () => {
    expect(ftsOf('Hello, World! 2 times')).toBe('hello world 2 times');
    expect(ftsOf('Ça va? ¿Qué tal?')).toBe('ça va qué tal');
    expect(ftsOf(null)).toBeNull();
    expect(ftsOf('!!!')).toBeNull();
  });

  it('counts delivery for individual chats only (groups count receipts per participant)', () => {
    expect(deliveryInfo(3, '1@c.us')).toEqual({ delivered_count: 1, read_count: 1, pending: [] });
    expect(deliveryInfo(2, '1@c.us')).toEqual({ delivered_count: 1, read_count: 0, pending: [] });
    expect(deliveryInfo(3, '1-2@g.us')).toEqual({ delivered_count: 0, read_count: 0, pending: [] });
  });

  it('builds the spec ids, sender fields and author of a message', () => {
    const org = { org_id: '00000000-0000-4000-8000-000000000000', phone_id: 'phone-x', org_phone: '1@c.us' };
    const row = ingestRow(org, {
      chat_id: '9-9@g.us',
      unique_id: 'U1',
      from_me: false,
      sender_phone: '2@c.us',
      body: 'Hi',
      message_type: 'chat',
      timestamp: '2026-01-01T00:00:00.000Z',
      ack: 0,
    });
    expect(row).toMatchObject({
      message_id: 'false_9-9@g.us_U1',
      author: '2@c.us',
      from: '2@c.us',
      to: '1@c.us',
      fts: 'hi',
      phone_id: 'phone-x',
    });
    const mine = ingestRow(org, {
      chat_id: '3@c.us',
      unique_id: 'U2',
      from_me: true,
      sender_phone: '1@c.us',
      body: null,
      message_type: 'chat',
      timestamp: '2026-01-01T00:00:00.000Z',
      ack: 1,
    });
    expect(mine).toMatchObject({ message_id: 'true_3@c.us_U2', author: null, from: '1@c.us', to: '3@c.us', fts: null });
  });
});
