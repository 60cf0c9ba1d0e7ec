import { messageFromJson } from './message-json';

describe('messageFromJson', () => {
  const text = JSON.stringify({
    id: 42,
    org_id: 'org',
    phone_id: 'phone-1',
    chat_id: '1@c.us',
    body: 'hi',
    timestamp: '2024-05-01T12:00:00+02:00',
    updated_at: '2024-05-01T10:00:00.123456+00:00',
    delivery_info: { read: ['x'] },
    mentioned_ids: [],
  });

  it('gives the surrogate key as text and the row without it or the phone column', () => {
    const { id, row } = messageFromJson(text);
    expect(id).toBe('42');
    expect(Object.keys(row)).not.toContain('id');
    expect(Object.keys(row)).not.toContain('phone_id');
    expect(row).toMatchObject({ org_id: 'org', chat_id: '1@c.us', body: 'hi', delivery_info: { read: ['x'] }, mentioned_ids: [] });
  });

  it('revives both timestamps as Dates, whatever offset they were written with', () => {
    const { row } = messageFromJson(text);
    expect(row.timestamp).toEqual(new Date('2024-05-01T10:00:00.000Z'));
    expect(row.updated_at).toEqual(new Date('2024-05-01T10:00:00.123Z'));
  });
});
