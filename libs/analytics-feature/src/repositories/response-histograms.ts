import { Prisma, type PrismaClient } from '@mapi/db';
import { bucketSql, bucketValueSql } from './bucket-sql';
import { histogramPieces } from './histogram-pieces';

/** The response figures of one output bucket `b` (a series bucket, or 0 for a period's totals), first or next responses. */
export interface HistogramRow {
  b: number;
  is_next: boolean;
  count: number;
  median: number | null;
  p90: number | null;
}

/**
 * Medians and p90s at nearest rank from the response-time histograms (docs/decisions/0096): each within 2 % of a sample of
 * the asked rank; counts exact. `ranges`: each output bucket's [s, e) (epoch ms), summed from day and hour rows and, where
 * not whole hours, the samples themselves (histogramPieces). In business time when the organization has a schedule now
 * (as responseMsSql). `phones` null: every phone.
 */
export function histogramFigures(
  prisma: PrismaClient | Prisma.TransactionClient,
  orgId: string,
  phones: string[] | null,
  ranges: readonly { b: number; s: number; e: number }[],
): Promise<HistogramRow[]> {
  const pieces = histogramPieces(ranges).map((p) => ({ ...p, s: new Date(p.s).toISOString(), e: new Date(p.e).toISOString() }));
  if (!pieces.length) return Promise.resolve([]);
  const inPhones = Prisma.sql`(${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[]))`;
  const rank = (q: number) => Prisma.raw(bucketValueSql(`min(bucket) FILTER (WHERE cum >= ceil(${q} * total))`));
  return prisma.$queryRaw<HistogramRow[]>`
    WITH p AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(pieces)}::jsonb) AS p(b int, unit char(1), s timestamptz, e timestamptz, sign int)),
    clock AS (SELECT EXISTS (SELECT 1 FROM analytics_business_hours h WHERE h.org_id = ${orgId}::uuid) AS business),
    h AS (
      -- per piece, an index range of its rows (LATERAL … OFFSET 0: never flattened into a scan of the organization's)
      SELECT p.b, r.is_next, r.bucket, p.sign * r.n AS n
      FROM p CROSS JOIN LATERAL (
        SELECT r.is_next, r.bucket::int AS bucket, r.n FROM analytics_response_buckets r
        WHERE r.org_id = ${orgId}::uuid AND r.unit = p.unit AND r.business = (SELECT business FROM clock)
          AND r.start >= p.s AND r.start < p.e AND ${inPhones}
        OFFSET 0) r
      WHERE p.unit <> 'r'
      UNION ALL
      SELECT p.b, x.is_next, x.bucket, p.sign
      FROM p CROSS JOIN LATERAL (
        SELECT x.is_next, ${Prisma.raw(bucketSql('CASE WHEN (SELECT business FROM clock) THEN COALESCE(x.business_ms, x.response_ms) ELSE x.response_ms END'))} AS bucket
        FROM analytics_responses x
        WHERE x.org_id = ${orgId}::uuid AND x.incoming_at >= p.s AND x.incoming_at < p.e AND ${inPhones}
        OFFSET 0) x
      WHERE p.unit = 'r'),
    g AS (SELECT b, is_next, bucket, sum(n) AS n FROM h GROUP BY 1, 2, 3 HAVING sum(n) <> 0),
    c AS (
      SELECT b, is_next, bucket, sum(n) OVER (PARTITION BY b, is_next ORDER BY bucket) AS cum, sum(n) OVER (PARTITION BY b, is_next) AS total
      FROM g)
    SELECT b, is_next, max(total)::int AS count, ${rank(0.5)} AS median, ${rank(0.9)} AS p90
    FROM c GROUP BY 1, 2`;
}
