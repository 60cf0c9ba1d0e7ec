import { ALPHA } from '../ingest/response-buckets';

/**
 * A jest asymmetric matcher: a time within ALPHA of `ms` (and half a ms: readings are whole ms; 0: exactly 0), as the
 * response-time histograms read a sample of `ms` (docs/decisions/0096).
 */
export const near = (ms: number) => ({
  asymmetricMatch: (v: unknown) => typeof v === 'number' && Number.isInteger(v) && Math.abs(v - ms) <= ALPHA * ms + (ms ? 0.5 : 0),
  toString: () => `within ${ALPHA * 100} % of ${ms}`,
  toAsymmetricMatcher: () => `within ${ALPHA * 100} % of ${ms}`,
});

/** An answer without its medians and p90s: what a member's exact figures and the histograms' share. */
export const withoutPercentiles = (answer: unknown): unknown =>
  JSON.parse(
    JSON.stringify(answer, (k: string, v: unknown) => (k === 'median' || k === 'p90' || k.endsWith('_median_ms') ? undefined : v)),
  );
