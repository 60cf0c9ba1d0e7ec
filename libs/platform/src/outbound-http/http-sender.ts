import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy';

/** Longest response body kept in the delivery log. */
export const MAX_LOGGED_BODY_BYTES = 20 * 1024;

export interface SendResult {
  status: number | null;
  timedOut: boolean;
  latencyMs: number;
  /** First 20 kB of the answer, as text. */
  responseBody: string | null;
  retryAfter: string | null;
  /** Why there was no 2xx: refused address, connection error, timeout, redirect. */
  error: string | null;
}

export type Resolver = (hostname: string, callback: (err: Error | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, callback) =>
  dnsLookup(hostname, { all: true, verbatim: true } as LookupAllOptions, (err, addresses) => callback(err, addresses ?? []));

export class BlockedAddressError extends Error {}

/**
 * Outgoing HTTP for webhooks (POST) and workflows' notify_http (any method), with node's http/https
 * (shared here so no service imports another's feature lib). The SSRF check runs on the address actually connected to: a The SSRF check runs on the address actually connected to: a
 * custom `lookup` resolves the name and refuses the whole host when any answer is a refused address
 * (so DNS rebinding between a check and the connect cannot slip through); IP literals, which skip
 * lookup, are checked before connecting. Redirects are never followed (3xx is a failure).
 */
export class HttpSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(
    private readonly policy: AddressPolicy,
    private readonly timeoutMs: number,
    private readonly resolver: Resolver = systemResolver,
    maxSockets = 256,
    private readonly userAgent = 'mapi-webhooks/1',
  ) {
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets });
  }

  /** The connect-time lookup: every resolved address must pass the policy. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolver(hostname, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const family = (options as { family?: number }).family;
      const usable = addresses.filter((a) => !family || a.family === family);
      if (!usable.length) return callback(new Error(`no address for ${hostname}`), '', 0);
      for (const a of usable) {
        const reason = this.policy.check(a.address);
        if (reason) return callback(new BlockedAddressError(reason), '', 0);
      }
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      else callback(null, usable[0].address, usable[0].family);
    });
  };

  /** Sends `body` (none for GET, or an empty body otherwise when '') with `headers` (they override the defaults). */
  send(
    url: string,
    body: string,
    headers: Record<string, string>,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' = 'POST',
  ): Promise<SendResult> {
    const started = performance.now();
    const done = (r: Omit<SendResult, 'latencyMs'>): SendResult => ({ ...r, latencyMs: Math.round(performance.now() - started) });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve(done({ status: null, timedOut: false, responseBody: null, retryAfter: null, error: 'invalid URL' }));
    }
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal)) {
      const reason = this.policy.check(literal);
      if (reason) return Promise.resolve(done({ status: null, timedOut: false, responseBody: null, retryAfter: null, error: reason }));
    }
    const isHttps = target.protocol === 'https:';
    const payload = method === 'GET' ? null : Buffer.from(body);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (r: Omit<SendResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(r));
      };
      const req = (isHttps ? https : http).request(target, {
        method,
        agent: isHttps ? this.httpsAgent : this.httpAgent,
        lookup: this.lookup,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
          'user-agent': this.userAgent,
          ...headers,
        },
      });
      const timer = setTimeout(() => {
        req.destroy();
        finish({ status: null, timedOut: true, responseBody: null, retryAfter: null, error: `timed out after ${this.timeoutMs} ms` });
      }, this.timeoutMs);
      req.on('error', (err) => finish({ status: null, timedOut: false, responseBody: null, retryAfter: null, error: err.message }));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const status = res.statusCode ?? null;
        const retryAfterHeader = res.headers['retry-after'];
        const complete = () =>
          finish({
            status,
            timedOut: false,
            responseBody: Buffer.concat(chunks).subarray(0, MAX_LOGGED_BODY_BYTES).toString('utf8'),
            retryAfter: typeof retryAfterHeader === 'string' ? retryAfterHeader : null,
            error: status !== null && status >= 300 && status < 400 ? `redirect (${status}) not followed` : null,
          });
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_LOGGED_BODY_BYTES) chunks.push(chunk);
          size += chunk.length;
          // Past the logged size there is nothing to keep: stop reading a large answer.
          if (size > MAX_LOGGED_BODY_BYTES * 4) {
            complete();
            res.destroy();
          }
        });
        res.on('end', complete);
        res.on('error', complete);
      });
      if (payload) req.end(payload);
      else req.end();
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
