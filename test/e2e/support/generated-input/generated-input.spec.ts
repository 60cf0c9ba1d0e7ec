import { buildOpenApi, ROUTES, type RouteContract } from '@mapi/contracts';
import { generateCases, operationsOf, type GeneratedCase, type Operation } from './generated-requests';
import { conforms, outOfRange, Rng, sample, wrongType } from './json-schema-values';

/**
 * The generator of the generated-input e2e test, checked against the real contracts: its valid
 * requests pass the zod schemas the gateway validates with, and its "invalid" ones fail them, so the
 * e2e test cannot quietly stop sending bad input.
 */
const doc = buildOpenApi(ROUTES, { serverUrl: 'http://localhost/v1', version: 'test' }) as Parameters<typeof operationsOf>[0];
const operations = operationsOf(doc);
const routeOf = (operationId: string) => ROUTES.find((r) => r.operationId === operationId) as RouteContract;
const fixtures = { hints: {}, foreign: {} };
const casesOf = (seed: number) =>
  operations.flatMap((op) => generateCases(op, fixtures, { seed, valid: 5, mutated: 1000 }).map((c) => ({ op, c })));

/** The case's path parameters, query and JSON body. */
function partsOf(route: RouteContract, c: GeneratedCase) {
  const url = new URL(`http://x${c.url}`);
  const template = route.path.split('/');
  const params = Object.fromEntries(
    url.pathname
      .split('/')
      .flatMap((seg, i) => (template[i]?.startsWith('{') ? [[template[i].slice(1, -1), decodeURIComponent(seg)]] : [])),
  );
  return { params, query: Object.fromEntries(url.searchParams), body: c.body === undefined ? undefined : JSON.parse(c.body) };
}

/** Whether the gateway's own validation (the route's zod schemas) would accept the case. */
function gatewayAccepts(route: RouteContract, c: GeneratedCase): boolean {
  const { params, query, body } = partsOf(route, c);
  return (
    (route.params?.safeParse(params).success ?? true) &&
    (route.query?.safeParse(query).success ?? true) &&
    (route.body ? route.body.safeParse(body).success : true)
  );
}

/** Whether the case conforms to the operation's schemas in the document (query values as the strings they are sent as). */
function documentAccepts(op: Operation, c: GeneratedCase): boolean {
  const { params, query, body } = partsOf(routeOf(op.operationId), c);
  const asSent = (schema: Record<string, any>, v: string) =>
    conforms(schema, v) || (v !== '' && conforms(schema, JSON.parse(isJson(v) ? v : JSON.stringify(v))));
  return (
    op.parameters.every((p) =>
      p.in === 'path' ? conforms(p.schema, params[p.name]) : p.in === 'query' && p.name in query ? asSent(p.schema, query[p.name]) : true,
    ) &&
    (op.body === undefined || conforms(op.body, body))
  );
}

describe('generated-input generator', () => {
  it('reads every route of the document', () => {
    expect(operations.map((o) => o.operationId).sort()).toEqual(ROUTES.map((r) => r.operationId).sort());
  });

  it('generates values that conform to their schema, for every parameter and body of the document', () => {
    const rng = new Rng(7);
    for (const op of operations) {
      for (const schema of [...op.parameters.map((p) => p.schema), ...(op.body ? [op.body] : [])]) {
        for (let i = 0; i < 20; i++) expect(conforms(schema, sample(schema, rng))).toBe(true);
      }
    }
  });

  it.each([1, 2, 3])('makes valid requests that conform to the document (seed %i)', (seed) => {
    const valid = casesOf(seed).filter(({ c }) => c.kind === 'valid');
    expect(valid.length).toBe(operations.length * 5);
    expect(valid.filter(({ op, c }) => !documentAccepts(op, c)).map(({ c }) => `${c.operationId}: ${c.url} ${c.body}`)).toEqual([]);
  });

  it('makes schema-breaking requests of every kind, each of which the gateway refuses', () => {
    const invalid = casesOf(1).filter(({ c }) => c.kind === 'invalid');
    const labels = invalid.map(({ c }) => c.label);
    for (const kind of [
      'missing (required)',
      'wrong type',
      'out of range',
      'malformed JSON',
      'text/plain',
      'bearer token',
      'instead of an object',
    ]) {
      expect(labels.filter((l) => l.includes(kind)).length).toBeGreaterThan(0);
    }
    // What the schemas alone decide (not auth, headers or content type): the gateway's zod schemas refuse it.
    const bySchema = invalid.filter(
      ({ c }) =>
        c.auth === 'self' &&
        !c.label.startsWith('header ') &&
        (c.headers['content-type'] ?? 'application/json') === 'application/json' &&
        (c.body === undefined || isJson(c.body)),
    );
    expect(bySchema.length).toBeGreaterThan(operations.length * 3);
    const accepted = bySchema
      .filter(({ op, c }) => gatewayAccepts(routeOf(op.operationId), c))
      .map(({ c }) => `${c.operationId} [${c.label}]: ${c.url} ${c.body?.slice(0, 100)}`);
    expect(accepted).toEqual([]);
  });

  it('breaks schemas with wrong types and out-of-range values', () => {
    const rng = new Rng(3);
    const schemas = [
      { type: 'integer', minimum: 1, maximum: 2000 },
      { type: 'string', minLength: 1, maxLength: 5 },
      { type: 'array', minItems: 1, maxItems: 3, items: { type: 'string' } },
    ];
    for (const schema of schemas) {
      expect(conforms(schema, wrongType(schema, rng))).toBe(false);
      expect(outOfRange(schema).length).toBeGreaterThan(0);
      for (const v of outOfRange(schema)) expect(conforms(schema, v)).toBe(false);
    }
  });

  it('is reproducible: the same seed gives the same requests, another seed others', () => {
    const urls = (seed: number) => casesOf(seed).map(({ c }) => `${c.url} ${c.body}`);
    expect(urls(5)).toEqual(urls(5));
    expect(urls(5)).not.toEqual(urls(6));
  });
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
