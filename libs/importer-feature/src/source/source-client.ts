import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import http from 'node:http';
import https from 'node:https';
import type { AddressPolicy } from '@mapi/platform';
import { Pacer, sleep } from './pacer';
import { SourceError } from './source-error';

export interface SourceClientOptions {
  /** The source's API base, e.g. https://api.example.com/v1 (no trailing slash). */
  baseUrl: string;
  token: string;
  policy: AddressPolicy;
  rate: number;
  concurrency: number;
  /** One request, headers to last byte (a body that never ends is cut here). */
  timeoutMs?: number;
  /** Attempts of one request through 429s, 5xx answers and network failures. */
  attempts?: number;
  /** The largest body accepted, in bytes. */
  maxBodyBytes?: number;
}

/** A GET's answer: null for 404 (a route or object the source does not have). */
export type SourceAnswer<T> = T | null;

const RETRY_BASE_MS = 250;
const RETRY_CAP_MS = 10_000;

/**
 * Reads the source organization through its public API as an ordinary client would: bearer token,
 * JSON only, paced by a Pacer, retrying 429 (as long as the source asks), 5xx and network failures
 * with back-off, and refusing what is not the API's JSON with an error that says what was found.
 * Connections go only to addresses the policy allows (checked at DNS resolution, so a name cannot
 * be pointed at an internal address after the check).
 */
export class SourceClient {
  private readonly pacer: Pacer;
  private readonly base: URL;
  requests = 0;
  retries = 0;

  constructor(private readonly options: SourceClientOptions) {
    this.pacer = new Pacer(options.rate, options.concurrency);
    this.base = new URL(options.baseUrl.replace(/\/+$/, '') + '/');
  }

  async get<T>(
    path: string,
    query: Record<string, string | number | undefined> = {},
    headers: Record<string, string> = {},
  ): Promise<SourceAnswer<T>> {
    const url = this.urlOf(path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return (await this.request(url, { method: 'GET', headers: this.apiHeaders(headers) }, classify)) as SourceAnswer<T>;
  }

  /** A JSON POST of the API (the source's own operations, e.g. refreshing media links); null for 404. */
  async post<T>(path: string, body: unknown): Promise<SourceAnswer<T>> {
    const payload = Buffer.from(JSON.stringify(body));
    return (await this.request(
      this.urlOf(path),
      { method: 'POST', headers: this.apiHeaders({ 'content-type': 'application/json' }), body: payload },
      classify,
    )) as SourceAnswer<T>;
  }

  /**
   * A file's bytes from a link the source handed out (its media app may be another host: the address
   * policy applies to it too). The API token is sent only to the API's own origin; links carry their own.
   * 429, 5xx and network failures are retried like the API's; any other refusal is a FileFetchError
   * (that file fails, the import goes on).
   */
  async download(link: string, maxBytes: number): Promise<{ body: Buffer; contentType: string | undefined }> {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      throw new FileFetchError(`not a URL: ${link.slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FileFetchError(`not an http(s) link: ${url.protocol}`);
    const headers: Record<string, string> = {
      'user-agent': 'mapi-importer/1',
      ...(url.origin === this.base.origin ? { authorization: `Bearer ${this.options.token}` } : {}),
    };
    const answer = await this.request(url, { method: 'GET', headers, maxBytes }, classifyFile);
    return answer as { body: Buffer; contentType: string | undefined };
  }

  private urlOf(path: string): URL {
    return new URL(path.replace(/^\/+/, ''), this.base);
  }

  private apiHeaders(more: Record<string, string>): Record<string, string> {
    return { authorization: `Bearer ${this.options.token}`, accept: 'application/json', 'user-agent': 'mapi-importer/1', ...more };
  }

  /** One request through the pacer, retried as its classifier says; null for a missing object. */
  private async request(url: URL, init: RequestInit, classifier: Classifier): Promise<unknown> {
    const attempts = this.options.attempts ?? 8;
    let lastError: SourceError | null = null;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const outcome = await this.pacer.run(() => this.once(url, init, classifier));
      if (outcome.kind === 'ok') return outcome.body;
      if (outcome.kind === 'missing') return null;
      lastError = outcome.error;
      this.retries++;
      const backoff = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** attempt) * (0.5 + Math.random() / 2);
      const wait = outcome.waitMs ?? backoff;
      this.pacer.pause(wait);
      await sleep(wait);
    }
    throw new SourceError(
      'SOURCE_UNAVAILABLE',
      `${lastError?.message ?? 'the source did not answer'} (after ${attempts} attempts; rerun to resume)`,
      true,
    );
  }

  private once(url: URL, init: RequestInit, classifier: Classifier): Promise<Outcome> {
    this.requests++;
    const transport = url.protocol === 'https:' ? https : http;
    // A file link's query is its access token: never in a message or a log.
    const where = `${init.method} ${url.pathname}${classifier === classifyFile ? '' : url.search}`;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const blocked = isIP(host) ? this.options.policy.check(host) : null; // a literal address skips the lookup
    if (blocked) return Promise.reject(blockedError(url.hostname, blocked));
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    const maxBytes = init.maxBytes ?? this.options.maxBodyBytes ?? 256 * 1024 * 1024;
    return new Promise<Outcome>((resolve, reject) => {
      const req = transport.request(url, { method: init.method, headers: init.headers, lookup: this.lookup, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy();
            reject(
              classifier === classifyFile
                ? new FileFetchError(`the file is larger than ${maxBytes} bytes`)
                : new SourceError('SOURCE_BAD_RESPONSE', `the source's answer to ${where} is larger than the importer accepts`),
            );
          } else chunks.push(chunk);
        });
        res.on('error', () => resolve(retry(new SourceError('SOURCE_UNREACHABLE', `the connection broke while reading ${where}`, true))));
        res.on('end', () => {
          try {
            resolve(classifier(res, Buffer.concat(chunks), where));
          } catch (error) {
            reject(error);
          }
        });
      });
      // The whole answer within the timeout: a body that trickles forever is cut as surely as a silent one.
      const overdue = () =>
        req.destroy(new SourceError('SOURCE_UNREACHABLE', `${where} did not finish within ${timeoutMs / 1000} s`, true));
      const deadline = setTimeout(overdue, timeoutMs);
      req.on('close', () => clearTimeout(deadline));
      req.on('timeout', overdue);
      req.on('error', (error) => {
        if (error instanceof SourceError && error.code === 'SOURCE_ADDRESS_BLOCKED') reject(error);
        else if (error instanceof SourceError) resolve(retry(error));
        else
          resolve(
            retry(
              new SourceError(
                'SOURCE_UNREACHABLE',
                `cannot reach ${url.host}: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
                true,
              ),
            ),
          );
      });
      req.end(init.body);
    });
  }

  private readonly lookup = (
    hostname: string,
    options: object,
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, []);
      for (const a of addresses) {
        const why = this.options.policy.check(a.address);
        if (why) return callback(blockedError(hostname, why), []);
      }
      const all = (options as { all?: boolean }).all;
      if (all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

const blockedError = (host: string, why: string) =>
  new SourceError(
    'SOURCE_ADDRESS_BLOCKED',
    `the source ${host} is not allowed: ${why}; an operator may allow it with IMPORT_SOURCE_ALLOW_CIDRS`,
  );

type Outcome = { kind: 'ok'; body: unknown } | { kind: 'missing' } | { kind: 'retry'; error: SourceError; waitMs?: number };
type Classifier = (res: http.IncomingMessage, body: Buffer, where: string) => Outcome;
interface RequestInit {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Buffer;
  /** The largest body accepted (default: the client's maxBodyBytes). */
  maxBytes?: number;
}

/** One file could not be copied (refused, gone, too large): that file fails, the import goes on. */
export class FileFetchError extends Error {}

const retry = (error: SourceError, waitMs?: number): Outcome => ({ kind: 'retry', error, waitMs });

function classify(res: http.IncomingMessage, body: Buffer, where: string): Outcome {
  const status = res.statusCode ?? 0;
  if (status === 429)
    return retry(new SourceError('SOURCE_UNAVAILABLE', `the source kept answering 429 to ${where}`, true), waitFrom(res) ?? undefined);
  if (status >= 500)
    return retry(
      new SourceError('SOURCE_UNAVAILABLE', `the source answered ${status} to ${where}`, true),
      status === 503 ? (waitFrom(res) ?? undefined) : undefined,
    );
  if (status === 401)
    throw new SourceError(
      'SOURCE_UNAUTHORIZED',
      'the source refused the token (401): check --token, and that it is an API token of the organization to import',
    );
  if (status === 403)
    throw new SourceError(
      'SOURCE_FORBIDDEN',
      `the token may not use ${where} (403): use a token of the organization that reaches every phone`,
    );
  if (status === 404) return { kind: 'missing' };
  if (status < 200 || status >= 300) throw new SourceError('SOURCE_BAD_RESPONSE', `the source answered ${status} to ${where}`);
  const type = String(res.headers['content-type'] ?? '');
  if (!/json/i.test(type)) {
    const looksHtml = /^\s*</.test(body.subarray(0, 64).toString('utf8'));
    throw new SourceError(
      'SOURCE_NOT_HOSTED_API',
      `${where} answered ${looksHtml ? 'HTML' : type || 'no content type'}, not the API's JSON: check --from (the API's base URL, ending in /v1)`,
    );
  }
  try {
    return { kind: 'ok', body: JSON.parse(body.toString('utf8')) };
  } catch {
    return retry(
      new SourceError('SOURCE_BAD_RESPONSE', `${where} answered JSON that does not parse (${body.length} bytes, truncated?)`, true),
    );
  }
}

/** A file's answer: its bytes on 2xx; 429 and 5xx retried; anything else refused for this file. */
function classifyFile(res: http.IncomingMessage, body: Buffer, where: string): Outcome {
  const status = res.statusCode ?? 0;
  if (status === 429 || status >= 500)
    return retry(new SourceError('SOURCE_UNAVAILABLE', `the source answered ${status} to ${where}`, true), waitFrom(res) ?? undefined);
  if (status < 200 || status >= 300) throw new FileFetchError(`the source answered ${status} for the file`);
  const type = res.headers['content-type'];
  return { kind: 'ok', body: { body, contentType: typeof type === 'string' ? type : undefined } };
}

/** How long the source asks us to wait: Retry-After (seconds or a date), else an exhausted X-RateLimit window. */
export function waitFrom(res: Pick<http.IncomingMessage, 'headers'>, now = Date.now()): number | null {
  const after = res.headers['retry-after'];
  if (typeof after === 'string') {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) return Math.min(60_000, Math.max(0, seconds * 1000));
    const at = Date.parse(after);
    if (Number.isFinite(at)) return Math.min(60_000, Math.max(0, at - now));
  }
  const remaining = res.headers['x-ratelimit-remaining'];
  const reset = res.headers['x-ratelimit-reset'];
  if (remaining === '0' && typeof reset === 'string') {
    const n = Number(reset);
    if (Number.isFinite(n)) {
      // epoch seconds, or seconds from now
      const ms = n > 1e9 ? n * 1000 - now : n * 1000;
      return Math.min(60_000, Math.max(0, ms));
    }
  }
  return null;
}
