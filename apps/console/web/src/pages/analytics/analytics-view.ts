/**
 * The Analytics and "Right now" pages' logic, free of the DOM: periods in a time zone, the routes'
 * query strings, durations and figures as text. Answers: docs/services/analytics.md.
 */

export interface Median {
  median: number | null;
  count: number;
}
export interface MessageTotals {
  active_chats: number;
  incoming: number;
  outgoing: number;
  flagged: number;
  first_response_ms: Median & { p90: number | null };
  /** Responses in chats already answered before (absent from an older service: shown as none). */
  next_response_ms?: Median & { p90: number | null };
}
export interface MessageBucket {
  bucket: string;
  active_chats: number;
  incoming: number;
  outgoing: number;
  flagged: number;
  first_responses: number;
  first_response_median_ms: number | null;
}
export interface MessageMetrics {
  from: string;
  to: string;
  tz: string;
  /** Response times counted in business hours (the organization has a schedule); absent from an older service. */
  business_hours?: boolean;
  interval: Interval;
  /** The label the figures are narrowed to (absent from an older service). */
  label?: string | null;
  totals: MessageTotals;
  series: MessageBucket[];
}
export interface TicketFigures {
  unresolved: number;
  open: number;
  in_progress: number;
  created: number;
  closed: number;
  time_to_first_assignment_ms: Median;
  time_to_close_ms: Median;
}
export interface TicketMetrics {
  totals: TicketFigures;
  by_assignee: (TicketFigures & { assignee: string | null })[];
}
export interface TeamMember {
  member: string;
  /** An API token's name when `member` is a token id (absent from an older service, null for emails). */
  name?: string | null;
  /** Chats the member sent to in the period (absent from an older service: shown empty). */
  active_chats?: number;
  messages_sent: number;
  first_response_ms: Median;
  /** Responses in chats already answered before (absent from an older service: shown as none). */
  next_response_ms?: Median;
  tickets_closed: number;
  tickets_unresolved: number;
}
export interface TeamMetrics {
  business_hours?: boolean;
  members: TeamMember[];
}
export interface RightNow {
  as_of: string;
  /** Chats with unread messages within reach (the session's own read marks); null when not asked. */
  unread_chats: number | null;
  waiting: { count: number; chats: { phone_id: string; chat_id: string; message_id: string; waiting_since: string; waiting_ms: number }[] };
  flagged: { count: number; chats: { phone_id: string; chat_id: string; flagged_messages: number }[] };
  open_tickets: {
    count: number;
    tickets: {
      ticket_id: string;
      phone_id: string;
      chat_id: string;
      status: string;
      assignee: string | null;
      created_at: string;
      open_ms: number;
    }[];
  };
}

export type Interval = 'day' | 'hour';
export type Preset = 'today' | '7d' | '30d' | 'custom';
export const PRESETS: [Preset, string][] = [
  ['today', 'Today'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
  ['custom', 'Custom'],
];

/** The reader's IANA time zone (the default of the page's zone picker). */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The zone's local calendar date (`YYYY-MM-DD`) at an instant. */
export function localDate(at: Date, tz: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The zone's offset from UTC (ms) at an instant. */
function offsetMs(at: number, tz: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return local - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a local date (`YYYY-MM-DD`) of the zone begins: its midnight, or when a change skips
 * midnight the first wall-clock time after it. Both offsets around the guess are tried; the earliest
 * instant on that date wins (a repeated midnight: its first occurrence).
 */
export function startOfLocalDay(date: string, tz: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d);
  const near = wall - offsetMs(wall, tz);
  const candidates = [near, wall - offsetMs(near, tz)].sort((a, b) => a - b);
  return new Date(candidates.find((at) => localDate(new Date(at), tz) === date) ?? candidates[1]);
}

/** A local date moved by whole days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The period of a preset in the zone, `from` inclusive and `to` exclusive: today; the last 7 or 30 days
 * with today; a custom span of local dates, both included. Null when a custom span is incomplete or reversed.
 */
export function periodOf(preset: Preset, tz: string, now: Date, custom: { from: string; to: string }): { from: string; to: string } | null {
  const today = localDate(now, tz);
  const days = preset === '7d' ? 7 : preset === '30d' ? 30 : 1;
  const [first, last] = preset === 'custom' ? [custom.from, custom.to] : [addDays(today, 1 - days), today];
  if (!/^\d{4}-\d{2}-\d{2}$/.test(first) || !/^\d{4}-\d{2}-\d{2}$/.test(last) || last < first) return null;
  return { from: startOfLocalDay(first, tz).toISOString(), to: startOfLocalDay(addDays(last, 1), tz).toISOString() };
}

/** The query of /analytics/messages, /tickets and /team: the period, zone, optional phone and interval. */
export function metricsQuery(period: { from: string; to: string }, tz: string, phoneId: string, interval?: Interval): string {
  const q = new URLSearchParams({ from: period.from, to: period.to, tz });
  if (interval) q.set('interval', interval);
  if (phoneId) q.set('phone_id', phoneId);
  return q.toString();
}

/** The query of /analytics/messages (its table, chart and CSV): the shared query, the interval and the label when one is chosen. */
export function messagesQuery(query: string, interval: Interval, label: string): string {
  const q = new URLSearchParams(query);
  q.set('interval', interval);
  if (label) q.set('label', label);
  return q.toString();
}

/** A team row's first cell: a token's name with its id's start (`Zapier (token 3f2a…)`), else who the events name. */
export const memberText = (m: Pick<TeamMember, 'member' | 'name'>): string =>
  m.name ? `${m.name} (token ${m.member.slice(0, 8)}…)` : m.member;

/** A duration for people: `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`; `–` when there is none. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  return h % 24 ? `${Math.floor(h / 24)} d ${h % 24} h` : `${Math.floor(h / 24)} d`;
}

/** The totals as the page lists them. */
export const messageTotals = (t: MessageTotals): [string, string][] => [
  ['Active chats', String(t.active_chats)],
  ['Incoming', String(t.incoming)],
  ['Outgoing', String(t.outgoing)],
  ['Flagged', String(t.flagged)],
  ['First response (median)', duration(t.first_response_ms.median)],
  ['First response (p90)', duration(t.first_response_ms.p90)],
  ['Next response (median)', duration(t.next_response_ms?.median)],
  ['Next response (p90)', duration(t.next_response_ms?.p90)],
];

export const ticketTotals = (t: TicketFigures): [string, string][] => [
  ['Unresolved', String(t.unresolved)],
  ['Open', String(t.open)],
  ['In progress', String(t.in_progress)],
  ['Raised', String(t.created)],
  ['Closed', String(t.closed)],
  ['To first assignment (median)', duration(t.time_to_first_assignment_ms.median)],
  ['To close (median)', duration(t.time_to_close_ms.median)],
];

/** The note shown when any answer's response times count business hours; null when none does (wall-clock time). */
export const businessHoursNote = (...answers: ({ business_hours?: boolean } | null | undefined)[]): string | null =>
  answers.some((a) => a?.business_hours === true) ? 'Response times count business hours (schedule set on the SLA page).' : null;

/** A team member's row of the team table, as the page shows it (the column order of TeamSection). */
export const teamRow = (m: TeamMember): string[] => [
  memberText(m),
  String(m.messages_sent),
  m.active_chats === undefined ? '' : String(m.active_chats),
  duration(m.first_response_ms.median),
  String(m.first_response_ms.count),
  duration(m.next_response_ms?.median),
  String(m.next_response_ms?.count ?? 0),
  String(m.tickets_closed),
  String(m.tickets_unresolved),
];

/** A bucket's label: its local day (`2026-11-02`) or hour (`2026-11-02 14:00`), as the answer writes it. */
export const bucketLabel = (bucket: string, interval: Interval): string =>
  interval === 'hour' ? `${bucket.slice(0, 10)} ${bucket.slice(11, 16)}` : bucket.slice(0, 10);

/** The chart's data: bucket starts (s), incoming, outgoing, first response median (min; null without one). */
export function chartData(series: readonly MessageBucket[]): [number[], number[], number[], (number | null)[]] {
  return [
    series.map((b) => Date.parse(b.bucket) / 1000),
    series.map((b) => b.incoming),
    series.map((b) => b.outgoing),
    series.map((b) => (b.first_response_median_ms === null ? null : Math.round(b.first_response_median_ms / 600) / 100)),
  ];
}

/** The console's address of a chat (its phone by number, as the chats page takes it); without the phone when unknown. */
export const chatPath = (chatId: string, orgPhone: string | null | undefined): string =>
  `/chats/${encodeURIComponent(chatId)}${orgPhone ? `?phone=${encodeURIComponent(orgPhone.replace(/@.*$/, ''))}` : ''}`;
