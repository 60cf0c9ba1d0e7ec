import { signatureHeaders, type SendResult } from '@mapi/platform';
import { ActionError, idempotencyKeyOf, type ActionContext } from './action-context';

/** The outgoing HTTP client an action calls through (libs/platform's HttpSender: SSRF-safe, no redirects, a timeout). */
export interface OutboundHttp {
  send(url: string, body: string, headers: Record<string, string>, method?: 'GET' | 'POST' | 'PUT' | 'DELETE'): Promise<SendResult>;
}

/** Longest part of an answer kept in the run log's error. */
const ERROR_BODY_CHARS = 500;

function answerData(body: string | null): Record<string, unknown> {
  if (!body) return {};
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { body: parsed };
  } catch {
    return { body };
  }
}

/**
 * notify_http: calls the workflow's URL through the shared SSRF-safe client (the address is checked
 * when connecting: private, loopback, link-local and reserved addresses are refused unless in
 * AUTOMATION_HTTP_ALLOW_CIDRS; redirects are not followed). Every attempt carries the step's
 * idempotency key as `idempotency-key` and `webhook-id` (the same on a retry or after a crash, so the
 * receiver can drop a repeat: a remote endpoint is the one effect no key of ours can hold back), and,
 * with a `signing_secret`, Standard Webhooks signature headers. A 2xx completes the step with
 * {status, data, error: null}; a refused address, a redirect or a 4xx (but 408 and 429) fails it; a
 * 5xx, 408, 429, timeout or connection error is retried.
 */
export async function notifyHttp(http: OutboundHttp | undefined, c: ActionContext): Promise<Record<string, unknown>> {
  if (!http) throw new ActionError('notify_http is not configured in this process');
  const m = c.metadata as {
    url: string;
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    headers?: Record<string, string>;
    body?: string;
    signing_secret?: string;
  };
  const key = idempotencyKeyOf(c);
  const body = m.method === 'GET' ? '' : (m.body ?? '');
  const headers: Record<string, string> = {
    ...(m.headers ?? {}),
    'idempotency-key': key,
    'webhook-id': key,
    ...(m.signing_secret ? signatureHeaders([m.signing_secret], key, body, new Date()) : {}),
  };
  const r = await http.send(m.url, body, headers, m.method);
  const status = r.status;
  if (status !== null && status >= 200 && status < 300) return { status, data: answerData(r.responseBody), error: null };
  const answer = r.responseBody ? `: ${r.responseBody.slice(0, ERROR_BODY_CHARS)}` : '';
  if (status === null) {
    // refused by the address policy (never connected): no retry mends that
    if (r.error?.includes('is not allowed (private')) throw new ActionError(`notify_http refused: ${r.error}`);
    throw new Error(`notify_http failed: ${r.error ?? 'no answer'}`);
  }
  if (status >= 300 && status < 400) throw new ActionError(`notify_http answered ${status}: ${r.error ?? 'redirect not followed'}`);
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) throw new ActionError(`notify_http answered ${status}${answer}`);
  throw new Error(`notify_http answered ${status}${answer}`);
}
