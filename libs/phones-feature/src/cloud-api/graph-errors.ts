/** An error answer of the Graph API: `{ error: { message, type, code, error_subcode, error_data } }`. */
export class GraphError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number | null,
    readonly details: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'GraphError';
  }

  /** What is recorded of it (no request, no token): Meta's code, title and details. */
  toRecord(): { code: number | null; message: string; details: string | null } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** A send the network refused for good: the job fails at once with this reason (session answer `refused`). */
export class SendRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SendRefused';
  }
}

/** What the Cloud API cannot do at all (groups, edits, pins, pairing codes): answered 400 naming it. */
export class CloudApiUnsupported extends Error {
  constructor(what: string) {
    super(`The WhatsApp Cloud API cannot ${what} (docs/services/cloud-api.md, "What works")`);
    this.name = 'CloudApiUnsupported';
  }
}

/**
 * A send Meta refused for now because of its rate limits: nothing was sent; the queue slows the phone
 * down and sends the same job again without using an attempt (session answer `throttled`).
 */
export class SendThrottled extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SendThrottled';
  }
}

/**
 * Meta's codes (developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes): rate limits
 * (app 4, WABA 80007, throughput 130429, spam 131048, pair 131056, HTTP 429) throttle the phone's queue;
 * transient failures are retried with the queue's back-off; the token refused disconnects the phone;
 * the rest refuses the send for good.
 */
const THROTTLE = new Set([4, 80007, 130429, 131048, 131056]);
const RETRY = new Set([1, 2, 131000, 131016, 133004]);
const AUTH = new Set([0, 190]);
export const REENGAGEMENT = 131047;

export type GraphErrorClass = 'throttle' | 'retry' | 'auth' | 'refused';

export function classifyGraphError(err: GraphError): GraphErrorClass {
  if (err.code !== null && THROTTLE.has(err.code)) return 'throttle';
  if (err.code !== null && RETRY.has(err.code)) return 'retry';
  if ((err.code !== null && AUTH.has(err.code)) || err.httpStatus === 401) return 'auth';
  if (err.httpStatus === 429) return 'throttle';
  if (err.httpStatus >= 500 || err.httpStatus === 0) return 'retry';
  return 'refused';
}

/** The reason a refused send's job fails with. */
export function refusalReason(err: GraphError): string {
  if (err.code === REENGAGEMENT)
    return (
      'More than 24 hours have passed since the customer last wrote: outside the customer-service window the Cloud API ' +
      `takes only template messages (Meta error ${REENGAGEMENT})`
    );
  return `The Cloud API refused the message: ${err.message}${err.details ? ` (${err.details})` : ''} (Meta error ${err.code ?? err.httpStatus})`;
}
