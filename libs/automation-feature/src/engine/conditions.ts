import { isConditionGroup, type ConditionGroup, type ConditionLeaf } from '@mapi/contracts';
import { readVariable, type WorkflowData } from './workflow-data';

const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const missing = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v === '');

/** A value as text for string conditions: numbers and booleans as written, arrays joined with commas. */
function asText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(String).join(',');
  return null;
}

/** An instant from an ISO 8601 text, epoch milliseconds (number or digits) or a Date. */
export function asInstant(v: unknown): number | null {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') {
    if (/^\d{10,16}$/.test(v.trim())) return Number(v.trim());
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

/** An array's items as lower-case text: an array, a comma-separated text, or the keys of `{name: true}` (label_ids). */
function asList(v: unknown): string[] | null {
  if (Array.isArray(v)) return v.map((x) => String(x).trim().toLowerCase());
  if (typeof v === 'string')
    return v
      .split(',')
      .map((x) => x.trim().toLowerCase())
      .filter(Boolean);
  if (v && typeof v === 'object')
    return Object.entries(v as Record<string, unknown>)
      .filter(([, on]) => on !== false && on !== null)
      .map(([k]) => k.toLowerCase());
  return null;
}

function asBool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  return null;
}

function compare(a: number, b: number, op: string): boolean {
  switch (op) {
    case 'GREATER_THAN':
      return a > b;
    case 'GREATER_THAN_OR_EQUAL':
      return a >= b;
    case 'LESS_THAN':
      return a < b;
    case 'LESS_THAN_OR_EQUAL':
      return a <= b;
    default:
      return false;
  }
}

/** Hour, minute, second and weekday of an instant in a time zone. */
function localParts(at: number, timeZone: string): { seconds: number; day: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    weekday: 'long',
  }).formatToParts(new Date(at));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '0';
  return { seconds: Number(get('hour')) * 3600 + Number(get('minute')) * 60 + Number(get('second')), day: get('weekday').toLowerCase() };
}

const timeOfDay = (hhmm: string) => {
  const [h, m, s] = hhmm.split(':').map(Number);
  return h * 3600 + m * 60 + (s ?? 0);
};

/**
 * Whether one condition holds for the event's objects. A variable that is absent (or null, or '')
 * satisfies IS_UNKNOWN only: every other condition, the negative ones included, is false on it.
 * Strings compare case-insensitively; `time` compares the time of day, and `day` the weekday, of the
 * variable's instant in the condition's time zone; `date` compares instants.
 */
export function evaluateLeaf(leaf: ConditionLeaf, data: WorkflowData): boolean {
  const v = readVariable(data, leaf.variable_name);
  if (leaf.condition === 'IS_UNKNOWN') return missing(v);
  if (leaf.condition === 'IS_KNOWN') return !missing(v);
  if (missing(v)) return false;
  switch (leaf.variable_type) {
    case 'string': {
      const text = asText(v)?.toLowerCase();
      const want = leaf.value.toLowerCase();
      if (text === undefined) return false;
      switch (leaf.condition) {
        case 'CONTAINS':
          return text.includes(want);
        case 'NCONTAINS':
          return !text.includes(want);
        case 'EQUALS':
          return text === want;
        case 'NEQUALS':
          return text !== want;
        case 'STARTS_WITH':
          return text.startsWith(want);
        case 'ENDS_WITH':
          return text.endsWith(want);
      }
      return false;
    }
    case 'number': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
      const want = Number(leaf.value);
      return Number.isFinite(n) && Number.isFinite(want) && compare(n, want, leaf.condition);
    }
    case 'date': {
      const at = asInstant(v);
      const want = asInstant(leaf.value);
      return at !== null && want !== null && compare(at, want, leaf.condition);
    }
    case 'time': {
      const at = asInstant(v);
      return at !== null && compare(localParts(at, leaf.timezone).seconds, timeOfDay(leaf.value), leaf.condition);
    }
    case 'day': {
      const at = asInstant(v);
      const days = (Array.isArray(leaf.value) ? leaf.value : [leaf.value]).map((d) => d.toLowerCase());
      return at !== null && days.includes(localParts(at, leaf.timezone).day);
    }
    case 'boolean': {
      const b = asBool(v);
      const want = asBool(leaf.value);
      if (b === null || want === null) return false;
      return leaf.condition === 'IS' ? b === want : b !== want;
    }
    case 'array': {
      const list = asList(v);
      if (!list) return false;
      const any = leaf.value.some((x) => list.includes(x.trim().toLowerCase()));
      return leaf.condition === 'IS_ANY_OF' ? any : !any;
    }
  }
  return false;
}

/** An AND group holds when every member does, an OR group when any does; an empty group holds. */
export function evaluateGroup(group: ConditionGroup, data: WorkflowData): boolean {
  if (!group.conditions.length) return true;
  const holds = (c: ConditionLeaf | ConditionGroup) => (isConditionGroup(c) ? evaluateGroup(c, data) : evaluateLeaf(c, data));
  return group.operator === 'AND' ? group.conditions.every(holds) : group.conditions.some(holds);
}

export { DAY_NAMES };
