/** Small HTTP helpers for end-to-end tests. */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export function client(baseUrl: string, token: string, phone?: string) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const h: Record<string, string> = { authorization: `Bearer ${token}`, ...headers };
    if (phone && !('x-phone' in h)) h['x-phone'] = phone;
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}/v1${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call('POST', path, body, headers),
    patch: (path: string, body?: unknown, headers?: Record<string, string>) => call('PATCH', path, body, headers),
    delete: (path: string, headers?: Record<string, string>) => call('DELETE', path, undefined, headers),
  };
}

/** Calls `fn` until `done` holds on its answer (bounded), returning the last answer. */
export async function until<T>(fn: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 15_000, label = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await fn();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}; last value: ${JSON.stringify(last).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
    last = await fn();
  }
  return last;
}

/** One request with a bearer token; the body is sent as given when a string (e.g. malformed JSON), else as JSON. */
export async function callApi(
  baseUrl: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${baseUrl}/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: json, headers: res.headers };
}

/** The spec's error envelope with this code and status, and a message. */
export function expectEnvelope(body: any, code: string, status: number): void {
  expect(body).toMatchObject({ code, status });
  expect(typeof body.message).toBe('string');
}

/** A 422 in the envelope naming `field` (and, when given, its message matching `message`). */
export function expect422(res: Answer, field: string, message?: RegExp): void {
  expect(res.status).toBe(422);
  expectEnvelope(res.body, 'VALIDATION_ERROR', 422);
  expect(Object.keys(res.body.fields)).toContain(field);
  if (message) expect(res.body.fields[field].message).toMatch(message);
}

/** A 404 in the envelope: what a missing row and another organization's row both answer. */
export function expect404(res: Answer): void {
  expect(res.status).toBe(404);
  expectEnvelope(res.body, 'NOT_FOUND_ERROR', 404);
}
