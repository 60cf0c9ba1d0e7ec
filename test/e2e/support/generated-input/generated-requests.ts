import { AWKWARD_STRINGS, conforms, hashSeed, outOfRange, Rng, sample, wrongType, type Hints, type JsonSchema } from './json-schema-values';

/** One operation of the OpenAPI document, as the generator reads it. */
export interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: Array<{ name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: JsonSchema }>;
  body?: JsonSchema;
  responses: Record<string, any>;
}

/**
 * What a case expects: `valid` and `odd` (schema-valid, or outside what a schema can say: extra
 * fields, odd strings, odd path segments) may be answered anything but a 5xx; `invalid` breaks the
 * operation's schema (or its auth) and must be a 4xx; `foreign` names another organization's ids and
 * must not answer with any of them.
 */
export type CaseKind = 'valid' | 'odd' | 'invalid' | 'foreign';

export interface GeneratedCase {
  operationId: string;
  label: string;
  kind: CaseKind;
  method: string;
  /** Path under /v1 with its query string. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Which bearer token to send: the seeded org's, none, or a malformed one. */
  auth: 'self' | 'none' | 'malformed';
}

export interface Fixtures {
  /** The seeded organization's ids by parameter/property name (`x-phone` for the header). */
  hints: Hints;
  /** Another organization's ids by the same names. */
  foreign: Hints;
}

export interface GenerateOptions {
  seed: number;
  /** Schema-valid requests per operation. */
  valid: number;
  /** At most this many mutated requests per operation (chosen by the seed among all the mutations). */
  mutated: number;
}

/** The operations of an OpenAPI 3.1 document (its `paths`, not its `webhooks`). */
export function operationsOf(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      operationId: op.operationId,
      parameters: op.parameters ?? [],
      body: op.requestBody?.content?.['application/json']?.schema,
      responses: op.responses ?? {},
    })),
  );
}

interface Parts {
  path: Record<string, string>;
  /** Path parameters sent as they are, not percent-encoded (malformed encodings). */
  rawPath?: Set<string>;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body?: unknown;
}

const asParam = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function validParts(op: Operation, rng: Rng, hints: Hints, hintChance = 0.8): Parts {
  const parts: Parts = { path: {}, query: [], headers: {} };
  for (const p of op.parameters) {
    if (p.in === 'path') parts.path[p.name] = asParam(sample(p.schema, rng, hints, p.name, hintChance));
    else if (p.in === 'query' && (p.required || rng.chance(0.5)))
      parts.query.push([p.name, asParam(sample(p.schema, rng, hints, p.name, hintChance))]);
    else if (p.in === 'header' && (p.required || rng.chance(hintChance)) && hints[p.name]?.length)
      parts.headers[p.name] = String(rng.pick(hints[p.name]));
  }
  if (op.body) parts.body = sample(op.body, rng, hints, undefined, hintChance);
  return parts;
}

function toCase(op: Operation, label: string, kind: CaseKind, parts: Parts, extra: Partial<GeneratedCase> = {}): GeneratedCase {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    parts.rawPath?.has(name) ? parts.path[name] : encodeURIComponent(parts.path[name] ?? ''),
  );
  const query = new URLSearchParams(parts.query).toString();
  const headers = { ...parts.headers };
  if (parts.body !== undefined) headers['content-type'] = 'application/json';
  return {
    operationId: op.operationId,
    label,
    kind,
    method: op.method,
    url: `${path}${query ? `?${query}` : ''}`,
    headers,
    body: parts.body === undefined ? undefined : JSON.stringify(parts.body),
    auth: 'self',
    ...extra,
  };
}

type Mutation = () => GeneratedCase | undefined;

/** Every way of breaking (or stretching) one valid request of `op`, each a function so only the chosen ones are built. */
function mutationsOf(op: Operation, base: () => Parts, rng: Rng, fixtures: Fixtures): Mutation[] {
  const out: Mutation[] = [];
  const add = (label: string, kind: CaseKind, change: (p: Parts) => Partial<GeneratedCase> | void) =>
    out.push(() => {
      const parts = base();
      const extra = change(parts);
      return toCase(op, label, kind, parts, extra ?? {});
    });

  add('no bearer token', 'invalid', () => ({ auth: 'none' }));
  add('malformed bearer token', 'invalid', () => ({ auth: 'malformed' }));

  for (const p of op.parameters) {
    const where = p.in === 'header' ? `header ${p.name}` : `${p.in} ${p.name}`;
    if (p.in === 'path') {
      for (const bad of ['%00', '..', ' ', 'null', '-1', 'é🧪', 'x'.repeat(3000), "' OR 1=1 --", '{}']) {
        add(`${where} = ${JSON.stringify(bad.slice(0, 20))}`, 'odd', (parts) => void (parts.path[p.name] = bad));
      }
      for (const raw of ['%', '%E0%A4%A', '%ZZ']) {
        add(`${where} = raw ${raw}`, 'odd', (parts) => void ((parts.path[p.name] = raw), (parts.rawPath = new Set([p.name]))));
      }
    } else if (p.in === 'query') {
      const wrong = p.schema.type === 'string' && !p.schema.enum && !p.schema.format ? undefined : 'not-a-valid-value';
      if (wrong && !conforms(p.schema, wrong)) add(`${where}: wrong type`, 'invalid', (parts) => void parts.query.push([p.name, wrong]));
      for (const v of outOfRange(p.schema))
        add(`${where}: out of range ${String(v).slice(0, 20)}`, 'invalid', (parts) => void parts.query.push([p.name, asParam(v)]));
      add(`${where}: repeated`, 'odd', (parts) => void parts.query.push([p.name, '1'], [p.name, '2']));
      add(`${where}: awkward string`, 'odd', (parts) => void parts.query.push([p.name, rng.pick(AWKWARD_STRINGS).slice(0, 2000)]));
    } else if (p.name === 'x-phone') {
      if (p.required) add(`${where}: missing`, 'invalid', (parts) => void delete parts.headers[p.name]);
      for (const bad of ['', 'abc', '+1 (555) 000', '0', 'x'.repeat(600), '12345678901234567890123']) {
        add(
          `${where} = ${JSON.stringify(bad.slice(0, 20))}`,
          bad === '' && !p.required ? 'odd' : 'invalid',
          (parts) => void (parts.headers[p.name] = bad),
        );
      }
    }
  }

  // Another organization's ids wherever a parameter or property has one.
  const foreignNames = Object.keys(fixtures.foreign);
  const namesUsed = [...op.parameters.map((p) => p.name), ...Object.keys(op.body?.properties ?? {})];
  if (namesUsed.some((n) => foreignNames.includes(n) || foreignNames.includes(`${n}[]`))) {
    out.push(() => toCase(op, "another organization's ids", 'foreign', validParts(op, rng, { ...fixtures.hints, ...fixtures.foreign }, 1)));
  }

  if (op.body) {
    const body = op.body;
    const props = Object.entries<JsonSchema>(body.properties ?? {});
    for (const key of body.required ?? [])
      add(`body.${key}: missing (required)`, 'invalid', (parts) => void delete (parts.body as any)[key]);
    for (const [key, schema] of props) {
      const wrong = wrongType(schema, rng);
      if (wrong !== undefined) add(`body.${key}: wrong type`, 'invalid', (parts) => void ((parts.body as any)[key] = wrong));
      for (const v of outOfRange(schema)) add(`body.${key}: out of range`, 'invalid', (parts) => void ((parts.body as any)[key] = v));
      if (conforms(schema, 'text')) {
        for (const s of shuffle([...AWKWARD_STRINGS], rng).slice(0, 3))
          add(`body.${key} = ${JSON.stringify(s.slice(0, 20))}`, 'odd', (parts) => void ((parts.body as any)[key] = s));
      }
    }
    add(
      'body: extra fields',
      'odd',
      (parts) => void Object.assign(parts.body as object, { __proto__x: 1, unexpected: { deep: [1, 2] }, constructor: 'x' }),
    );
    for (const whole of [[], 'a string', 12, null, true]) {
      if (!conforms(body, whole))
        add(`body: ${JSON.stringify(whole)} instead of an object`, 'invalid', (parts) => void (parts.body = whole));
    }
    add('body: deeply nested', 'odd', (parts) => void ((parts.body as any).nested = nest(200)));
    add('body: malformed JSON', 'invalid', () => ({ body: '{"a": ' }));
    add('body: trailing garbage', 'invalid', (parts) => ({ body: `${JSON.stringify(parts.body)} }{` }));
    add('body: text/plain', 'invalid', (parts) => ({
      headers: { ...parts.headers, 'content-type': 'text/plain' },
      body: JSON.stringify(parts.body),
    }));
    add('body: form-urlencoded', 'invalid', (parts) => ({
      headers: { ...parts.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1&b=2',
    }));
    add('body: multipart without a boundary', 'odd', (parts) => ({
      headers: { ...parts.headers, 'content-type': 'multipart/form-data' },
      body: '--x\r\n',
    }));
    if ((body.required ?? []).length) add('body: none', 'invalid', (parts) => void (parts.body = undefined));
  } else if (op.method !== 'GET') {
    add('unexpected JSON body', 'odd', (parts) => void (parts.body = { unexpected: true }));
  }
  return out;
}

const nest = (depth: number): unknown => (depth === 0 ? 'bottom' : { n: nest(depth - 1) });

/**
 * The generated requests of one operation: `valid` schema-valid ones, then up to `mutated` of its
 * mutations, chosen and built from a seed derived from the run's seed and the operationId (adding a
 * route does not change the others' requests).
 */
export function generateCases(op: Operation, fixtures: Fixtures, options: GenerateOptions): GeneratedCase[] {
  const rng = new Rng(hashSeed(options.seed, op.operationId));
  const cases: GeneratedCase[] = [];
  for (let i = 0; i < options.valid; i++) cases.push(toCase(op, `valid #${i + 1}`, 'valid', validParts(op, rng, fixtures.hints)));
  const all = mutationsOf(op, () => validParts(op, rng, fixtures.hints), rng, fixtures);
  const chosen = shuffle(all, rng).slice(0, options.mutated);
  for (const build of chosen) {
    const c = build();
    if (c) cases.push(c);
  }
  return cases;
}

function shuffle<T>(items: T[], rng: Rng): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
