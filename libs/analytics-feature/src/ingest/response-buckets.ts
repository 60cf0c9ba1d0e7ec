import type { Prisma } from '@mapi/db';
import { ALPHA, GAMMA, bucketSql, bucketValueSql } from '../repositories/bucket-sql';

/**
 * Response-time histograms (docs/decisions/0096): each response sample counted in a log-spaced bucket, per
 * (organization, unit, clock, start, phone, first/next), unit `h` (UTC hour) and `d` (UTC day), clock false
 * (wall-clock, response_ms) and true (business time, business_ms or else response_ms). Bucket i (i ≥ 0) holds
 * (γ^(i−1), γ^i] ms and is read as 2γ^i/(γ+1): within α of any sample it holds; bucket −1 holds 0 ms exactly.
 */
export { ALPHA, GAMMA, bucketSql, bucketValueSql };

/** A sample written (+1) or replaced / deleted (−1); ms as numbers (float8: exact to 2^53). */
export interface SampleChange {
  org_id: string;
  phone_id: string;
  incoming_at: string;
  is_next: boolean;
  response_ms: number;
  business_ms: number | null;
  sign: 1 | -1;
}

/** Each sample's rows: two units × two clocks, `x` the samples (org_id, phone_id, incoming_at, is_next, response_ms, business_ms, sign). */
const countsOf = (x: string) => `
  SELECT x.org_id, u.unit, c.business, date_trunc(u.field, x.incoming_at, 'UTC') AS start, x.phone_id, x.is_next,
    ${bucketSql('c.ms')} AS bucket, sum(x.sign)::int AS n
  FROM ${x}
  CROSS JOIN (VALUES ('h', 'hour'), ('d', 'day')) AS u(unit, field)
  CROSS JOIN LATERAL (VALUES (false, x.response_ms), (true, COALESCE(x.business_ms, x.response_ms))) AS c(business, ms)
  GROUP BY 1, 2, 3, 4, 5, 6, 7`;

/**
 * Moves the histograms by a batch's changed samples, in the caller's transaction (the one that wrote the samples):
 * +1 per sample written, −1 per sample replaced or deleted; rows in key order (concurrent batches lock alike).
 * Rows that fall to 0 stay (they add nothing to a read).
 */
export async function writeResponseBuckets(tx: Prisma.TransactionClient, changes: readonly SampleChange[]): Promise<void> {
  if (!changes.length) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO analytics_response_buckets AS b (org_id, unit, business, start, phone_id, is_next, bucket, n)
     SELECT * FROM (${countsOf(`jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, incoming_at timestamptz, is_next boolean,
       response_ms bigint, business_ms bigint, sign int)`)}) d
     WHERE d.n <> 0
     ORDER BY 1, 2, 3, 4, 5, 6, 7
     ON CONFLICT (org_id, unit, business, start, phone_id, is_next, bucket) DO UPDATE SET n = b.n + EXCLUDED.n`,
    JSON.stringify(changes),
  );
}

/** The histograms of an organization as its stored samples give them (no zero rows): what a rebuild writes, what the live rows must equal. */
export const regroupedSql = `SELECT * FROM (${countsOf(`(SELECT r.*, 1 AS sign FROM analytics_responses r WHERE r.org_id = $1::uuid) x`)}) d`;

/** A rebuild: the organization's histograms written again from its samples (the caller holds its lock). */
export async function regroupResponseBuckets(tx: Prisma.TransactionClient, orgId: string): Promise<void> {
  await tx.$executeRawUnsafe(`DELETE FROM analytics_response_buckets WHERE org_id = $1::uuid`, orgId);
  await tx.$executeRawUnsafe(
    `INSERT INTO analytics_response_buckets (org_id, unit, business, start, phone_id, is_next, bucket, n) ${regroupedSql}`,
    orgId,
  );
}
