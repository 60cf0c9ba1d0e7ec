/**
 * The buckets of the response-time histograms (docs/decisions/0096), shared by the intake that writes them
 * (ingest/response-buckets.ts) and the reads (response-histograms.ts): bucket i (i ≥ 0) holds (γ^(i−1), γ^i] ms
 * and is read as 2γ^i/(γ+1), within α of any sample it holds; bucket −1 holds 0 ms exactly.
 */
export const ALPHA = 0.02;
export const GAMMA = (1 + ALPHA) / (1 - ALPHA);

/** The bucket of a time in ms (an SQL expression); the same expression writes and reads, so the two always agree. */
export const bucketSql = (ms: string) => `(CASE WHEN ${ms} <= 0 THEN -1 ELSE ceil(ln((${ms})::float8) / ${Math.log(GAMMA)})::int END)`;

/** The value a bucket is read as (an SQL expression): whole ms, as the samples are (within α of them, or 0.5 ms). */
export const bucketValueSql = (bucket: string) =>
  `(CASE WHEN ${bucket} < 0 THEN 0::float8 ELSE round(2 * power(${GAMMA}::float8, ${bucket}) / ${GAMMA + 1}) END)`;
