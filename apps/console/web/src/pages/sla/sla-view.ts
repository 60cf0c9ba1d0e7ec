/**
 * The SLA page's pure parts (no DOM): what GET/POST/PATCH /v1/analytics/sla-policies and
 * /v1/analytics/business-hours take and answer, the forms' bodies, and the API's 422 field errors
 * placed next to the fields that caused them.
 */

export const SLA_KINDS = [
  ['first_response', 'First response'],
  ['next_response', 'Next response'],
] as const;
export type SlaKind = (typeof SLA_KINDS)[number][0];

export interface SlaPolicy {
  policy_id: string;
  name: string;
  kind: SlaKind;
  minutes: number;
  label_id: string | null;
  phone_id: string | null;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export interface Hours {
  start: string;
  end: string;
}
export interface BusinessHours {
  time_zone: string;
  weekly: Record<Weekday, Hours[]>;
  holidays: string[];
  updated_at: string;
}

/** What the signed-in member may change: the routes are `role: 'admin'`; the schedule is refused to one limited to phones. */
export function editRights(me: { role: string; phone_ids: string[] | null } | null | undefined): { policies: boolean; schedule: boolean } {
  const admin = me?.role === 'owner' || me?.role === 'admin';
  return { policies: admin, schedule: admin && me?.phone_ids === null };
}

/** The API's 422 fields (`body.minutes`, `body.weekly.monday.0.end`) keyed without `body.`; empty for anything else. */
export function fieldErrors(error: unknown): Record<string, string> {
  const fields = (error as { status?: number; fields?: Record<string, { message: string }> } | null)?.fields;
  if (!fields || (error as { status?: number }).status !== 422) return {};
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k.replace(/^body\.?/, '') || 'body', f.message]));
}

/** The first message among the fields named `name` or below it (`weekly.monday` takes `weekly.monday.0.end`). */
export function errorFor(errors: Record<string, string>, name: string): string | null {
  const key = Object.keys(errors).find((k) => k === name || k.startsWith(`${name}.`));
  return key === undefined ? null : errors[key];
}

/** The errors no field of the form shows (`body`, unknown keys). */
export const otherErrors = (errors: Record<string, string>, shown: string[]): string[] =>
  Object.entries(errors)
    .filter(([k]) => !shown.some((s) => k === s || k.startsWith(`${s}.`)))
    .map(([k, m]) => (k === 'body' ? m : `${k}: ${m}`));

/** A number when the text is one; the text otherwise, so that the API names what is wrong with it. */
const numberOr = (text: string): number | string => {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : text;
};

export interface PolicyForm {
  name: string;
  kind: string;
  minutes: string;
  label_id: string;
  phone_id: string;
  enabled: boolean;
}

/** POST /analytics/sla-policies body from the form (blank label / phone: every chat / phone). */
export function policyBody(f: PolicyForm): Record<string, unknown> {
  return {
    name: f.name,
    kind: f.kind,
    minutes: numberOr(f.minutes),
    label_id: f.label_id || null,
    phone_id: f.phone_id || null,
    enabled: f.enabled,
  };
}

/** PATCH body: only the fields that changed; null when nothing did. */
export function policyPatch(before: SlaPolicy, f: PolicyForm): Record<string, unknown> | null {
  const after = policyBody(f);
  const changed = Object.entries(after).filter(([k, v]) => (before as unknown as Record<string, unknown>)[k] !== v);
  return changed.length ? Object.fromEntries(changed) : null;
}

export const formOf = (p: SlaPolicy | null): PolicyForm => ({
  name: p?.name ?? '',
  kind: p?.kind ?? 'first_response',
  minutes: p ? String(p.minutes) : '',
  label_id: p?.label_id ?? '',
  phone_id: p?.phone_id ?? '',
  enabled: p?.enabled ?? true,
});

/** "2 h 30 min" for 150. */
export function minutesText(m: number): string {
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  const min = m % 60;
  return [d && `${d} d`, h && `${h} h`, min && `${min} min`].filter(Boolean).join(' ') || '0 min';
}

export const kindText = (k: string): string => SLA_KINDS.find(([v]) => v === k)?.[1] ?? k;

/** A day's hours as typed: `09:00-12:00, 13:00-17:00`; empty: closed. */
export const hoursText = (hours: Hours[] | undefined): string => (hours ?? []).map((h) => `${h.start}-${h.end}`).join(', ');

/** The typed hours as the API takes them; a piece that is not `start-end` goes as given so the API names it. */
export function parseHours(text: string): Hours[] {
  return text
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((piece) => {
      const m = /^(\S+?)\s*[-–]\s*(\S+)$/.exec(piece);
      return m ? { start: m[1], end: m[2] } : { start: piece, end: '' };
    });
}

/** Holidays typed as dates separated by commas, spaces or lines. */
export const parseHolidays = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** PUT /analytics/business-hours body from the form. */
export function scheduleBody(f: { time_zone: string; days: Record<Weekday, string>; holidays: string }): Record<string, unknown> {
  return {
    time_zone: f.time_zone,
    weekly: Object.fromEntries(WEEKDAYS.map((d) => [d, parseHours(f.days[d] ?? '')])),
    holidays: parseHolidays(f.holidays),
  };
}

/** The zones the runtime knows, with `own` among them. */
export function zones(own: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(own) ? all : [own, ...all];
}
