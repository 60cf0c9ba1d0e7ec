import { parseJsonRows } from '../ingest/insert-messages';
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

  it('reads a float8 flag_response_time row_to_json wrote as a string (NaN, ±Infinity) as the number Prisma gives; numbers and null as they are', () => {
    const read = (value: unknown) =>
      messageFromJson(
        JSON.stringify({
          id: 1,
          timestamp: '2024-05-01T10:00:00+00:00',
          updated_at: '2024-05-01T10:00:00+00:00',
          flag_response_time: value,
        }),
      ).row.flag_response_time;
    expect([read('NaN'), read('Infinity'), read('-Infinity'), read(1.5), read(null)]).toEqual([NaN, Infinity, -Infinity, 1.5, null]);
  });
});

describe('parseJsonRows (the rows an insert or update returns)', () => {
  it('revives as messageFromJson does, keeping the phone column', () => {
    const j = JSON.stringify({
      id: 7,
      phone_id: 'phone-1',
      chat_id: '1@c.us',
      timestamp: '2024-05-01T12:00:00+02:00',
      updated_at: '2024-05-01T10:00:00.5+00:00',
      flag_response_time: 'Infinity',
    });
    const [row] = parseJsonRows([{ j }]);
    expect(Object.keys(row)).not.toContain('id');
    expect(row).toEqual({
      phone_id: 'phone-1',
      chat_id: '1@c.us',
      timestamp: new Date('2024-05-01T10:00:00.000Z'),
      updated_at: new Date('2024-05-01T10:00:00.500Z'),
      flag_response_time: Infinity,
    });
    const { row: same } = messageFromJson(j);
    expect({ ...same, phone_id: 'phone-1' }).toEqual(row);
  });
});
