import type { CsvCell } from '../../http/define-route';
import type { MessageMetricsResult } from '../message-metrics/message-metrics.contract';
import type { RightNowResult } from '../right-now/right-now.contract';
import type { TeamMetricsResult } from '../team-metrics/team-metrics.contract';
import type { TicketMetricsResult } from '../ticket-metrics/ticket-metrics.contract';

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break; a text starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so a spreadsheet does not run it
 * as a formula (names and ids come from users). Numbers as they are; null empty.
 */
export function csvCell(v: CsvCell): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A table as CSV text: CRLF line ends, one line per row (header first). */
export const csvText = (rows: readonly (readonly CsvCell[])[]): string => rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';

/** GET /analytics/messages: the series, one row per bucket, then the period's totals (bucket `total`). */
export function messagesCsv(answer: unknown): CsvCell[][] {
  const a = answer as MessageMetricsResult;
  const t = a.totals;
  return [
    ['bucket', 'active_chats', 'incoming', 'outgoing', 'flagged', 'first_responses', 'first_response_median_ms', 'first_response_p90_ms'],
    ...a.series.map((s) => [
      s.bucket,
      s.active_chats,
      s.incoming,
      s.outgoing,
      s.flagged,
      s.first_responses,
      s.first_response_median_ms,
      null,
    ]),
    [
      'total',
      t.active_chats,
      t.incoming,
      t.outgoing,
      t.flagged,
      t.first_response_ms.count,
      t.first_response_ms.median,
      t.first_response_ms.p90,
    ],
  ];
}

type TicketCounts = TicketMetricsResult['totals'];
const ticketCells = (c: TicketCounts): CsvCell[] => [
  c.unresolved,
  c.open,
  c.in_progress,
  c.created,
  c.closed,
  c.time_to_first_assignment_ms.median,
  c.time_to_first_assignment_ms.count,
  c.time_to_close_ms.median,
  c.time_to_close_ms.count,
];

/** GET /analytics/tickets: one row per assignee (`scope` assignee; empty: unassigned), then the totals (`scope` total). */
export function ticketsCsv(answer: unknown): CsvCell[][] {
  const a = answer as TicketMetricsResult;
  return [
    [
      'scope',
      'assignee',
      'unresolved',
      'open',
      'in_progress',
      'created',
      'closed',
      'time_to_first_assignment_median_ms',
      'first_assignments',
      'time_to_close_median_ms',
      'closes',
    ],
    ...a.by_assignee.map((r) => ['assignee', r.assignee, ...ticketCells(r)]),
    ['total', null, ...ticketCells(a.totals)],
  ];
}

/** GET /analytics/team: one row per member. */
export function teamCsv(answer: unknown): CsvCell[][] {
  const a = answer as TeamMetricsResult;
  return [
    ['member', 'messages_sent', 'first_response_median_ms', 'first_responses', 'tickets_closed', 'tickets_unresolved'],
    ...a.members.map((m) => [
      m.member,
      m.messages_sent,
      m.first_response_ms.median,
      m.first_response_ms.count,
      m.tickets_closed,
      m.tickets_unresolved,
    ]),
  ];
}

/** GET /analytics/now: one row per listed chat (`list` waiting or flagged). */
export function nowCsv(answer: unknown): CsvCell[][] {
  const a = answer as RightNowResult;
  return [
    ['list', 'phone_id', 'chat_id', 'message_id', 'waiting_since', 'waiting_ms', 'flagged_messages'],
    ...a.waiting.chats.map((c) => ['waiting', c.phone_id, c.chat_id, c.message_id, c.waiting_since, c.waiting_ms, null]),
    ...a.flagged.chats.map((c) => ['flagged', c.phone_id, c.chat_id, null, null, null, c.flagged_messages]),
  ];
}
