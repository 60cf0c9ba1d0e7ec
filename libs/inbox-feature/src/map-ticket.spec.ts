import { isoFromPg, mapTicket, mapTicketJson } from './map-ticket';
import { reviveTicket, type TicketJson } from './repositories/ticket-repository';

const row = (over: Partial<TicketJson> = {}): TicketJson => ({
  ticket_id: '7d1b6a3e-0a35-4f52-9a57-6f3c1f0f6d01',
  org_id: '0c6f1d4e-7c1e-4b8e-9d4f-2b1a3c5d7e90',
  phone_id: 'phone-aaaaaaaaaaaa1',
  chat_id: '919800000001@c.us',
  subject: 'Refund',
  status: 'closed',
  priority: 3,
  assignee: 'amy@example.com',
  assigned_by: 'tok',
  first_assigned_at: '2026-11-26T18:58:55.006123+00:00',
  raised_by: 'tok',
  quoted_message_id: null,
  attached_message_ids: [],
  due_date: '2026-12-01T18:29:59+00:00',
  labels: ['vip', 'late'],
  custom_properties: { b: '2', a: '1' },
  closed_at: '2026-11-26T19:00:00.5+00:00',
  closed_by: 'tok',
  is_deleted: false,
  created_at: '2026-11-26T18:00:00.999999+00:00',
  last_updated_at: '0099-01-01T00:00:00.12+00:00',
  last_updated_by: null,
  request_hash: null,
  ...over,
});

describe("mapTicketJson (the listing's rows without Date objects)", () => {
  it.each([
    ['every column set', row()],
    [
      'nulls and no values',
      row({ first_assigned_at: null, due_date: null, closed_at: null, closed_by: null, assignee: null, custom_properties: {}, labels: [] }),
    ],
    [
      'timestamps Postgres would not write in UTC',
      row({ created_at: '2026-11-26T20:00:00.123456+02:00', last_updated_at: '2026-11-26T18:00:00Z' }),
    ],
  ])('gives the same object, key for key and in order, as mapTicket of the revived row: %s', (_, j) => {
    expect(JSON.stringify(mapTicketJson(j))).toBe(JSON.stringify(mapTicket(reviveTicket(structuredClone(j)))));
  });

  it('writes timestamps as toISOString does: milliseconds truncated, Z', () => {
    const texts = [
      '2026-01-01T00:00:00+00:00',
      '2026-01-01T00:00:00.5+00:00',
      '2026-01-01T00:00:00.12+00:00',
      '2026-01-01T00:00:00.9999996+00:00',
      '2026-02-28T23:59:59.000001+00:00',
      '0099-01-01T00:00:00.123456+00:00',
      '2026-06-01T12:00:00.1+05:30',
    ];
    for (const t of texts) expect(isoFromPg(t)).toBe(new Date(t).toISOString());
    for (let i = 0; i < 1000; i++) {
      const ms = (i * 3_999_999_937) % 4e12;
      const us = String((i * 7) % 1000).padStart(3, '0');
      const text = `${new Date(ms).toISOString().slice(0, 23)}${us}`.replace(/0+$/, '').replace(/\.$/, '') + '+00:00';
      expect(isoFromPg(text)).toBe(new Date(text).toISOString());
    }
  });
});
