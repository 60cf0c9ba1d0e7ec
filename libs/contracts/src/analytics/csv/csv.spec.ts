import { messagesCsv } from '../message-metrics/message-metrics.contract';
import { nowCsv } from '../right-now/right-now.contract';
import { teamCsv } from '../team-metrics/team-metrics.contract';
import { ticketsCsv } from '../ticket-metrics/ticket-metrics.contract';
import { csvCell, csvText } from './csv';

describe('analytics CSV', () => {
  it('quotes cells as RFC 4180 says and keeps spreadsheets from running formulas', () => {
    expect([csvCell('plain'), csvCell('a,b'), csvCell('say "hi"'), csvCell('two\nlines')]).toEqual([
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
    ]);
    expect([csvCell('=1+1'), csvCell('+33 6'), csvCell('-x'), csvCell('@me'), csvCell('=a,b')]).toEqual([
      "'=1+1",
      "'+33 6",
      "'-x",
      "'@me",
      `"'=a,b"`,
    ]);
    expect([csvCell(null), csvCell(0), csvCell(-1.5), csvCell(Number.NaN)]).toEqual(['', '0', '-1.5', '']);
    expect(
      csvText([
        ['a', 'b'],
        [1, null],
      ]),
    ).toBe('a,b\r\n1,\r\n');
  });

  it('writes each analytics answer as a table: a header, its rows, and the totals where there are some', () => {
    const counts = { active_chats: 1, incoming: 2, outgoing: 1, flagged: 0 };
    const messages = messagesCsv({
      totals: {
        ...counts,
        first_response_ms: { median: 180_000, p90: 200_000, count: 1 },
        next_response_ms: { median: 60_000, p90: 90_000, count: 2 },
      },
      series: [
        {
          bucket: '2026-11-02T00:00:00+00:00',
          ...counts,
          first_responses: 1,
          first_response_median_ms: 180_000,
          next_responses: 2,
          next_response_median_ms: 60_000,
        },
      ],
    });
    expect(messages).toEqual([
      [
        'bucket',
        'active_chats',
        'incoming',
        'outgoing',
        'flagged',
        'first_responses',
        'first_response_median_ms',
        'first_response_p90_ms',
        'next_responses',
        'next_response_median_ms',
        'next_response_p90_ms',
      ],
      ['2026-11-02T00:00:00+00:00', 1, 2, 1, 0, 1, 180_000, null, 2, 60_000, null],
      ['total', 1, 2, 1, 0, 1, 180_000, 200_000, 2, 60_000, 90_000],
    ]);
    const t = {
      unresolved: 1,
      open: 1,
      in_progress: 0,
      created: 2,
      closed: 1,
      time_to_first_assignment_ms: { median: 600_000, count: 1 },
      time_to_close_ms: { median: null, count: 0 },
    };
    const tickets = ticketsCsv({ totals: t, by_assignee: [{ assignee: null, ...t }] });
    expect(tickets).toHaveLength(3);
    expect(tickets[1]).toEqual(['assignee', null, 1, 1, 0, 2, 1, 600_000, 1, null, 0]);
    expect(tickets[2][0]).toBe('total');
    expect(
      teamCsv({
        members: [
          {
            member: 'a@x.io',
            name: null,
            active_chats: 2,
            messages_sent: 3,
            first_response_ms: { median: 1, count: 1 },
            next_response_ms: { median: 4, count: 2 },
            tickets_closed: 2,
            tickets_unresolved: 0,
          },
        ],
      }),
    ).toEqual([
      [
        'member',
        'name',
        'messages_sent',
        'first_response_median_ms',
        'first_responses',
        'next_response_median_ms',
        'next_responses',
        'tickets_closed',
        'tickets_unresolved',
        'active_chats',
      ],
      ['a@x.io', null, 3, 1, 1, 4, 2, 2, 0, 2],
    ]);
    const now = nowCsv({
      waiting: {
        count: 1,
        chats: [{ phone_id: 'p', chat_id: 'c', message_id: 'm', waiting_since: '2026-11-02T00:00:00.000Z', waiting_ms: 5 }],
      },
      flagged: { count: 1, chats: [{ phone_id: 'p', chat_id: 'd', flagged_messages: 2 }] },
      open_tickets: {
        count: 1,
        tickets: [
          {
            ticket_id: 't',
            phone_id: 'p',
            chat_id: 'e',
            status: 'open',
            assignee: null,
            created_at: '2026-11-02T00:00:00.000Z',
            open_ms: 7,
          },
        ],
      },
      breaching: {
        count: 1,
        chats: [
          {
            phone_id: 'p',
            chat_id: 'f',
            message_id: 'm2',
            waiting_since: '2026-11-02T00:00:00.000Z',
            waiting_ms: 900_000,
            due_at: '2026-11-02T00:05:00.000Z',
            breached_at: '2026-11-02T00:05:01.000Z',
            overdue_ms: 600_000,
            policies: [
              { policy_id: 'x', name: 'First reply', kind: 'first_response', minutes: 5 },
              { policy_id: 'y', name: 'VIP', kind: 'first_response', minutes: 5 },
            ],
          },
        ],
      },
    });
    expect(now.map((r) => r[0])).toEqual(['list', 'waiting', 'flagged', 'open_ticket', 'breaching']);
    expect(now.every((r) => r.length === now[0].length)).toBe(true);
    expect(now[0].slice(-4)).toEqual(['due_at', 'breached_at', 'overdue_ms', 'policies']);
    expect(now[3]).toEqual([
      'open_ticket',
      'p',
      'e',
      null,
      null,
      null,
      null,
      't',
      'open',
      null,
      '2026-11-02T00:00:00.000Z',
      7,
      null,
      null,
      null,
      null,
    ]);
    expect(now[4]).toEqual([
      'breaching',
      'p',
      'f',
      'm2',
      '2026-11-02T00:00:00.000Z',
      900_000,
      null,
      null,
      null,
      null,
      null,
      null,
      '2026-11-02T00:05:00.000Z',
      '2026-11-02T00:05:01.000Z',
      600_000,
      'First reply; VIP',
    ]);
  });
});
