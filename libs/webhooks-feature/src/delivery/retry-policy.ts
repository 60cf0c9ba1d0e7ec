/**
 * What happens after one HTTP attempt: settle the delivery, or schedule the next try. Pure (time and
 * randomness come in as arguments) so the schedule is testable under a fake clock.
 */

/** Delay before attempt n+1 (index n-1 after attempt n): immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** After a 429 or a timeout the next try waits at least this long. */
export const MIN_BACKOFF_AFTER_THROTTLE_MS = 60_000;
/** A Retry-After beyond this is capped (a receiver cannot park a delivery for days). */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
/** Retries land within ±20% of the scheduled delay, so failed bursts do not come back as bursts. */
export const JITTER = 0.2;

export interface AttemptOutcome {
  /** HTTP status, or null when no answer came (refused, timeout, connection error). */
  status: number | null;
  timedOut: boolean;
  /** Retry-After header as received, if any. */
  retryAfter?: string | null;
}

export type Decision =
  | { kind: 'succeeded' }
  /** 410 Gone: the receiver asks us to stop; the subscription is disabled at once. */
  | { kind: 'gone' }
  | { kind: 'exhausted' }
  | { kind: 'retry'; at: Date };

export const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

/** Retry-After in seconds or as an HTTP date, as milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/**
 * `attempt` is the 1-based number of the attempt that just ended. The schedule's length is the number
 * of attempts; after the last one fails the delivery is exhausted.
 */
export function decideAfterAttempt(
  outcome: AttemptOutcome,
  attempt: number,
  now: Date,
  random: () => number = Math.random,
  schedule: readonly number[] = DEFAULT_RETRY_SCHEDULE_MS,
): Decision {
  if (isSuccess(outcome.status)) return { kind: 'succeeded' };
  if (outcome.status === 410) return { kind: 'gone' };
  if (attempt >= schedule.length) return { kind: 'exhausted' };
  const base = schedule[attempt];
  let delay = base * (1 - JITTER + 2 * JITTER * random());
  const retryAfter = parseRetryAfter(outcome.retryAfter, now);
  if (retryAfter !== null) delay = Math.max(delay, Math.min(retryAfter, MAX_RETRY_AFTER_MS));
  if (outcome.status === 429 || outcome.timedOut) delay = Math.max(delay, MIN_BACKOFF_AFTER_THROTTLE_MS);
  return { kind: 'retry', at: new Date(now.getTime() + Math.round(delay)) };
}

/** Sustained failure: the subscription has failed without a success for `disableAfterMs`. */
export function isSustainedFailure(failingSince: Date | null, now: Date, disableAfterMs: number): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= disableAfterMs;
}
