/**
 * Values from the JSON Schemas of our OpenAPI document (the keywords `z.toJSONSchema` emits): a
 * seeded generator of valid values, a small validator, and the mutations that break a schema. The
 * generated-input e2e test builds its requests from these; `json-schema-values.spec.ts` checks them.
 */
export type JsonSchema = Record<string, any>;

/** A seeded PRNG (mulberry32): the same seed gives the same requests. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** A stable 32-bit hash, to derive one operation's seed from the run's seed and its operationId. */
export function hashSeed(seed: number, text: string): number {
  let h = seed >>> 0;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

/** Known-good values by property or parameter name (the seeded org's ids), used instead of random ones. */
export type Hints = Record<string, readonly unknown[]>;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Longest array or string the valid generator makes, so valid requests stay small and quick. */
const CAP = 4;

const typeOf = (schema: JsonSchema): string | undefined => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

function uuid(rng: Rng): string {
  const hex = () => rng.int(0, 15).toString(16);
  const part = (n: number) => Array.from({ length: n }, hex).join('');
  return `${part(8)}-${part(4)}-4${part(3)}-${rng.pick(['8', '9', 'a', 'b'])}${part(3)}-${part(12)}`;
}

/** Strings for the patterns our contracts use: `^[class]{m,n}$` (and `+`/`*`); another pattern throws, so a new one is noticed. */
function fromPattern(pattern: string, rng: Rng): string {
  const m = /^\^\[([^\]]+)\](?:\{(\d+)(?:,(\d+))?\}|(\+)|(\*))\$$/.exec(pattern);
  if (!m) throw new Error(`json-schema-values: no generator for pattern ${pattern}`);
  const chars = expandClass(m[1]);
  const min = m[2] !== undefined ? Number(m[2]) : m[4] ? 1 : 0;
  const max = m[2] !== undefined ? Number(m[3] ?? m[2]) : min + 8;
  return Array.from({ length: rng.int(min, max) }, () => rng.pick(chars)).join('');
}

function expandClass(cls: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < cls.length; i++) {
    if (cls[i + 1] === '-' && i + 2 < cls.length) {
      for (let c = cls.charCodeAt(i); c <= cls.charCodeAt(i + 2); c++) out.push(String.fromCharCode(c));
      i += 2;
    } else out.push(cls[i]);
  }
  return out;
}

function sampleString(schema: JsonSchema, rng: Rng): string {
  if (schema.format === 'uuid') return uuid(rng);
  if (schema.format === 'date-time')
    return new Date(Date.UTC(2024, rng.int(0, 11), rng.int(1, 28), rng.int(0, 23), rng.int(0, 59))).toISOString();
  if (schema.format === 'uri') return `https://example.com/${fromPattern('^[a-z0-9]{1,12}$', rng)}`;
  if (schema.pattern) return fromPattern(schema.pattern, rng);
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? min + 12, Math.max(min, 1) + 12);
  return Array.from({ length: rng.int(Math.max(min, 1), Math.max(max, 1)) }, () => rng.pick([...LETTERS])).join('');
}

function sampleNumber(schema: JsonSchema, rng: Rng): number {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
  const max = Math.min(schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : min + 100), min + 1000);
  return rng.int(Math.ceil(min), Math.floor(max));
}

/**
 * A value that conforms to `schema`; properties and parameters named in `hints` take one of the
 * hinted values (with probability `hintChance`, so random values of the right shape are sent too).
 */
export function sample(schema: JsonSchema, rng: Rng, hints: Hints = {}, name?: string, hintChance = 0.8): unknown {
  const hinted = name ? (hints[name] ?? []).filter((v) => conforms(schema, v)) : [];
  if (hinted.length && rng.chance(hintChance)) return rng.pick(hinted);
  const again = (s: JsonSchema, n?: string) => sample(s, rng, hints, n, hintChance);
  if ('const' in schema) return schema.const;
  if (schema.enum) return rng.pick(schema.enum);
  if (schema.anyOf) return again(rng.pick(schema.anyOf), name);
  if (schema.oneOf) return again(schema.oneOf[0], name);
  switch (typeOf(schema)) {
    case 'string':
      return sampleString(schema, rng);
    case 'integer':
    case 'number':
      return sampleNumber(schema, rng);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? min + CAP, min + CAP);
      const itemName = name ? `${name}[]` : undefined;
      return Array.from({ length: rng.int(min, max) }, () => again(schema.items ?? {}, itemName));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [key, prop] of Object.entries<JsonSchema>(schema.properties ?? {})) {
        if (required.has(key) || rng.chance(0.5)) out[key] = again(prop, key);
      }
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && rng.chance(0.5)) {
        out[sampleString({ minLength: 1, maxLength: 8 }, rng)] = again(schema.additionalProperties);
      }
      return out;
    }
    default:
      // `{}`: any value; a string is the most common reading
      return sampleString({ minLength: 1, maxLength: 8 }, rng);
  }
}

const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);

/** Whether `value` conforms to `schema`, for the keywords our document uses (formats uuid/date-time/uri included). */
export function conforms(schema: JsonSchema, value: unknown): boolean {
  if ('const' in schema && value !== schema.const) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  if (schema.anyOf && !schema.anyOf.some((s: JsonSchema) => conforms(s, value))) return false;
  if (schema.oneOf && schema.oneOf.filter((s: JsonSchema) => conforms(s, value)).length !== 1) return false;
  const type = typeOf(schema);
  if (type) {
    const actual = jsonType(value);
    const ok = actual === type || (type === 'number' && actual === 'integer');
    if (!ok) return false;
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) return false;
    if (schema.maxLength !== undefined && length > schema.maxLength) return false;
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) return false;
    if (schema.format === 'uri' && !URL.canParse(value)) return false;
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) return false;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return false;
    if (schema.maximum !== undefined && value > schema.maximum) return false;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return false;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return false;
    if (schema.items && !value.every((v) => conforms(schema.items, v))) return false;
  }
  if (jsonType(value) === 'object') {
    const obj = value as Record<string, unknown>;
    if ((schema.required ?? []).some((k: string) => !(k in obj))) return false;
    for (const [k, v] of Object.entries(obj)) {
      const prop = schema.properties?.[k];
      if (prop && !conforms(prop, v)) return false;
      if (!prop && schema.additionalProperties === false) return false;
      if (!prop && typeof schema.additionalProperties === 'object' && !conforms(schema.additionalProperties, v)) return false;
    }
  }
  return true;
}

/** A value of another JSON type than the schema allows (undefined when the schema allows every type). */
export function wrongType(schema: JsonSchema, rng: Rng): unknown {
  const candidates: unknown[] = [42.5, 'not-the-type', true, null, [1, 'two'], { unexpected: 'object' }, -1, ''];
  const wrong = candidates.filter((v) => !conforms(schema, v));
  return wrong.length ? rng.pick(wrong) : undefined;
}

/** Values just outside the schema's bounds (too short/long, too small/large, too few/many items), each breaking it. */
export function outOfRange(schema: JsonSchema): unknown[] {
  const out: unknown[] = [];
  const type = typeOf(schema);
  if (type === 'string' && !schema.format && !schema.enum) {
    if (schema.minLength) out.push('');
    if (schema.maxLength !== undefined) out.push('x'.repeat(schema.maxLength + 1));
  }
  if (type === 'integer' || type === 'number') {
    if (schema.minimum !== undefined) out.push(schema.minimum - 1);
    if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER) out.push(schema.maximum + 1);
    if (type === 'integer') out.push((schema.minimum ?? 0) + 0.5);
  }
  if (type === 'array') {
    if (schema.minItems) out.push([]);
    if (schema.maxItems !== undefined && schema.maxItems <= 2000)
      out.push(Array.from({ length: schema.maxItems + 1 }, (_, i) => sampleFirst(schema.items, i)));
  }
  return out.filter((v) => !conforms(schema, v));
}

/** A deterministic valid item (for over-long arrays: the array's length is what breaks it). */
function sampleFirst(items: JsonSchema | undefined, i: number): unknown {
  return sample(items ?? {}, new Rng(i + 1));
}

/** Strings that a schema may accept but that have broken servers before: NUL, lone surrogates, RTL, emoji, SQL/JSON metacharacters. */
export const AWKWARD_STRINGS: readonly string[] = [
  'nul\u0000byte',
  'lone \ud800 surrogate',
  '\u202eRTL override \u0645\u0631\u062d\u0628\u0627',
  'emoji 🧪🚀👩‍👩‍👧 and combining é',
  'quote \' " \\ ; -- DROP TABLE x; %s %n ${x}',
  '   ',
  '0',
  '-1',
  '1e309',
  '../../etc/passwd',
  '%00%2F..%2F',
  'x'.repeat(70_000),
];
