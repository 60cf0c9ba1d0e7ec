import type { AnalyticsInterval, ChatCopy } from '@mapi/contracts';
import { Prisma, type PrismaClient } from '@mapi/db';
import { histogramFigures, type HistogramRow } from './response-histograms';

export interface MetricsScope {
  orgId: string;
  /** The phones counted; null: every phone of the organization. */
  phones: string[] | null;
  /**
   * The chat copies counted (a member's reach); absent: every chat of the phones. With it the counters
   * are summed from the per-chat slots instead of the per-phone ones.
   */
  chats?: ChatCopy[];
}

/** `AND (phone_id, chat_id) within the scope's chats`, or nothing. */
export const chatFilter = (scope: MetricsScope) =>
  scope.chats
    ? Prisma.sql`AND (phone_id, chat_id) IN (SELECT r.phone_id, r.chat_id FROM jsonb_to_recordset(${JSON.stringify(scope.chats)}::jsonb) AS r(phone_id text, chat_id text))`
    : Prisma.empty;

/**
 * A response sample's time in ms: its business time when the organization has a schedule now and the sample was
 * written with one (business_ms), else its wall-clock time (docs/services/analytics.md, "Response times").
 */
export const responseMsSql = (orgId: string) =>
  Prisma.sql`CASE WHEN EXISTS (SELECT 1 FROM analytics_business_hours h WHERE h.org_id = ${orgId}::uuid)
    THEN COALESCE(business_ms, response_ms) ELSE response_ms END`;

export interface SeriesRow {
  /** The bucket's local wall-clock start, YYYY-MM-DDTHH:MI:SS, and its UTC offset in seconds. */
  local: string;
  offset_s: number;
  incoming: number;
  outgoing: number;
  flagged: number;
  active_chats: number;
  first_responses: number;
  first_response_median_ms: number | null;
  next_responses: number;
  next_response_median_ms: number | null;
}

/** Median, 90th percentile and count of a period's response samples (first or next). */
export interface ResponseFigures {
  median: number | null;
  p90: number | null;
  count: number;
}

export interface PeriodTotals {
  active_chats: number;
  /** Whether the organization has a schedule now (response times in business hours). */
  business_hours: boolean;
  first: ResponseFigures;
  next: ResponseFigures;
}

export interface WaitingRow {
  phone_id: string;
  chat_id: string;
  waiting_message_id: string;
  waiting_since: Date;
}

export interface BreachingRow {
  phone_id: string;
  chat_id: string;
  message_id: string;
  waiting_since: Date;
  due_at: Date;
  breached_at: Date;
  policies: { policy_id: string; name: string; kind: 'first_response' | 'next_response'; minutes: number }[];
}

export interface FlaggedRow {
  phone_id: string;
  chat_id: string;
  flagged_count: number;
}

/**
 * The analytics service's reads: its aggregates only (never the messages table), every query keyed
 * by the organization first and narrowed to the scope's phones.
 */
export class MetricsRepository {
  constructor(private readonly prisma: PrismaClient | Prisma.TransactionClient) {}

  /**
   * `read` over one snapshot (a repeatable-read transaction): figures read together (a period's series
   * and its totals) never straddle a batch of the intake committing between them.
   */
  snapshot<T>(read: (metrics: MetricsRepository) => Promise<T>): Promise<T> {
    if (!('$transaction' in this.prisma)) return read(this);
    // a read-only snapshot: as long as its reads take (Prisma's default of 5 s failed slow answers on a loaded machine)
    return this.prisma.$transaction((tx) => read(new MetricsRepository(tx)), {
      isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead,
      timeout: 60_000,
      maxWait: 10_000,
    });
  }

  /**
   * One row per local day (or hour) of `tz` over [from, to), empty buckets included, oldest first. The response medians:
   * of a set of chats (a member's, a label's) exact, from the samples; else from the histograms (docs/decisions/0096),
   * each local bucket from day and hour rows (histogramPieces), read in the same snapshot as the counters.
   */
  async series(scope: MetricsScope, from: Date, to: Date, tz: string, interval: AnalyticsInterval): Promise<SeriesRow[]> {
    const rows = await this.seriesRows(scope, from, to, tz, interval);
    if (scope.chats) return rows;
    // each bucket's UTC start (its local start less its offset), the first from `from`, each ending where the next starts
    // (never before the previous one: a local hour skipped by a clock change is an empty bucket)
    const starts: number[] = [];
    rows.forEach((r, i) => starts.push(i === 0 ? from.getTime() : Math.max(starts[i - 1], Date.parse(`${r.local}Z`) - r.offset_s * 1000)));
    const ranges = starts.map((s, b) => ({ b, s, e: b + 1 < starts.length ? starts[b + 1] : to.getTime() }));
    const figures = await histogramFigures(this.prisma, scope.orgId, scope.phones, ranges);
    for (const f of figures) {
      const row = rows[f.b];
      if (f.is_next) [row.next_responses, row.next_response_median_ms] = [f.count, f.median];
      else [row.first_responses, row.first_response_median_ms] = [f.count, f.median];
    }
    return rows;
  }

  private seriesRows(scope: MetricsScope, from: Date, to: Date, tz: string, interval: AnalyticsInterval): Promise<SeriesRow[]> {
    const { orgId, phones } = scope;
    const step = `1 ${interval}`;
    const chats = chatFilter(scope);
    // Per phone, or (for a set of chats) per chat: the same sums, from fewer rows without a chat filter.
    const countsTable = scope.chats ? Prisma.sql`analytics_chat_slots` : Prisma.sql`analytics_message_slots`;
    // the response medians of a set of chats, exact from its samples; else none here (series reads the histograms)
    const responses = scope.chats
      ? Prisma.sql`
        SELECT date_trunc(${interval}, incoming_at AT TIME ZONE ${tz}) AS b,
          count(*) FILTER (WHERE NOT is_next)::int AS n,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE NOT is_next) AS median,
          count(*) FILTER (WHERE is_next)::int AS next_n,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE is_next) AS next_median
        FROM (SELECT incoming_at, is_next, ${responseMsSql(orgId)} AS ms FROM analytics_responses
          WHERE org_id = ${orgId}::uuid AND incoming_at >= ${from} AND incoming_at < ${to}
            AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[])) ${chats}) r
        GROUP BY 1`
      : Prisma.sql`SELECT NULL::timestamp AS b, 0 AS n, NULL::float8 AS median, 0 AS next_n, NULL::float8 AS next_median WHERE false`;
    return this.prisma.$queryRaw<SeriesRow[]>`
      WITH buckets AS (
        SELECT b FROM generate_series(date_trunc(${interval}, ${from}::timestamptz AT TIME ZONE ${tz}),
          (${to}::timestamptz - interval '1 millisecond') AT TIME ZONE ${tz}, ${step}::interval) b),
      counts AS (
        SELECT date_trunc(${interval}, slot AT TIME ZONE ${tz}) AS b,
          sum(incoming)::int AS incoming, sum(outgoing)::int AS outgoing, sum(flagged)::int AS flagged
        FROM ${countsTable}
        WHERE org_id = ${orgId}::uuid AND slot >= ${from} AND slot < ${to} AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[])) ${chats}
        GROUP BY 1),
      active AS (
        SELECT b, count(*)::int AS active_chats FROM (
          SELECT DISTINCT date_trunc(${interval}, slot AT TIME ZONE ${tz}) AS b, phone_id, chat_id FROM analytics_chat_slots
          WHERE org_id = ${orgId}::uuid AND slot >= ${from} AND slot < ${to} AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[])) ${chats}) d
        GROUP BY b),
      responses AS (${responses})
      SELECT to_char(buckets.b, 'YYYY-MM-DD"T"HH24:MI:SS') AS local,
        extract(epoch FROM buckets.b - ((buckets.b AT TIME ZONE ${tz}) AT TIME ZONE 'UTC'))::int AS offset_s,
        COALESCE(counts.incoming, 0) AS incoming, COALESCE(counts.outgoing, 0) AS outgoing, COALESCE(counts.flagged, 0) AS flagged,
        COALESCE(active.active_chats, 0) AS active_chats, COALESCE(responses.n, 0) AS first_responses,
        responses.median AS first_response_median_ms, COALESCE(responses.next_n, 0) AS next_responses,
        responses.next_median AS next_response_median_ms
      FROM buckets LEFT JOIN counts USING (b) LEFT JOIN active USING (b) LEFT JOIN responses USING (b)
      ORDER BY buckets.b`;
  }

  /**
   * Distinct active chats and the first- and next-response percentiles of the whole period: of a set of chats exact,
   * from the samples; else from the histograms (docs/decisions/0096: within 2 % of a sample of the rank; counts exact).
   */
  async totals(scope: MetricsScope, from: Date, to: Date): Promise<PeriodTotals> {
    if (scope.chats) return this.exactTotals(scope, from, to);
    const { orgId, phones } = scope;
    // one after the other: within a snapshot both run on its one connection
    const [row] = await this.prisma.$queryRaw<{ active_chats: number; business_hours: boolean }[]>`
        SELECT (SELECT count(*)::int FROM (
            SELECT DISTINCT phone_id, chat_id FROM analytics_chat_slots
            WHERE org_id = ${orgId}::uuid AND slot >= ${from} AND slot < ${to} AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[]))) d
          ) AS active_chats,
          EXISTS (SELECT 1 FROM analytics_business_hours h WHERE h.org_id = ${orgId}::uuid) AS business_hours`;
    const figures = await histogramFigures(this.prisma, orgId, phones, [{ b: 0, s: from.getTime(), e: to.getTime() }]);
    const figuresOf = (f: HistogramRow | undefined): ResponseFigures => ({
      median: f?.median ?? null,
      p90: f?.p90 ?? null,
      count: f?.count ?? 0,
    });
    return {
      active_chats: row.active_chats,
      business_hours: row.business_hours,
      first: figuresOf(figures.find((f) => !f.is_next)),
      next: figuresOf(figures.find((f) => f.is_next)),
    };
  }

  /** The exact percentiles (percentile_cont) of a set of chats' samples: a member's or a label's figures. */
  private async exactTotals(scope: MetricsScope, from: Date, to: Date): Promise<PeriodTotals> {
    const { orgId, phones } = scope;
    const chats = chatFilter(scope);
    type Row = { active_chats: number; business_hours: boolean } & Record<
      `${'first' | 'next'}_${'median' | 'p90' | 'count'}`,
      number | null
    >;
    const [row] = await this.prisma.$queryRaw<Row[]>`
      SELECT
        (SELECT count(*)::int FROM (
          SELECT DISTINCT phone_id, chat_id FROM analytics_chat_slots
          WHERE org_id = ${orgId}::uuid AND slot >= ${from} AND slot < ${to} AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[])) ${chats}) d
        ) AS active_chats,
        EXISTS (SELECT 1 FROM analytics_business_hours h WHERE h.org_id = ${orgId}::uuid) AS business_hours,
        r.*
      FROM (
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE NOT is_next) AS first_median,
          percentile_cont(0.9) WITHIN GROUP (ORDER BY ms) FILTER (WHERE NOT is_next) AS first_p90,
          count(*) FILTER (WHERE NOT is_next)::int AS first_count,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE is_next) AS next_median,
          percentile_cont(0.9) WITHIN GROUP (ORDER BY ms) FILTER (WHERE is_next) AS next_p90,
          count(*) FILTER (WHERE is_next)::int AS next_count
        FROM (SELECT is_next, ${responseMsSql(orgId)} AS ms FROM analytics_responses
          WHERE org_id = ${orgId}::uuid AND incoming_at >= ${from} AND incoming_at < ${to}
            AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[])) ${chats}) s) r`;
    const figures = (k: 'first' | 'next'): ResponseFigures => ({
      median: row[`${k}_median`],
      p90: row[`${k}_p90`],
      count: row[`${k}_count`] ?? 0,
    });
    return { active_chats: row.active_chats, business_hours: row.business_hours, first: figures('first'), next: figures('next') };
  }

  /** Whether the organization has a schedule now: its response times are then counted in business hours. */
  async businessHours(orgId: string): Promise<boolean> {
    const [row] = await this.prisma.$queryRaw<{ set: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM analytics_business_hours WHERE org_id = ${orgId}::uuid) AS set`;
    return row.set;
  }

  /** The chat copies with a message in [from, to), at most `limit` (a member's figures are narrowed from them). */
  activeChats(scope: MetricsScope, from: Date, to: Date, limit: number): Promise<ChatCopy[]> {
    const { orgId, phones } = scope;
    return this.prisma.$queryRaw<ChatCopy[]>`
      SELECT DISTINCT phone_id, chat_id FROM analytics_chat_slots
      WHERE org_id = ${orgId}::uuid AND slot >= ${from} AND slot < ${to} AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[]))
      LIMIT ${limit}`;
  }

  /** Chats waiting for a response, longest first: `limit` of them after `offset`, and how many in all. */
  waiting(scope: MetricsScope, offset: number, limit: number): Promise<WaitingRow[]> {
    const { orgId, phones } = scope;
    return this.prisma.$queryRaw<WaitingRow[]>`
      SELECT phone_id, chat_id, waiting_message_id, waiting_since FROM analytics_chat_states
      WHERE org_id = ${orgId}::uuid AND waiting_since IS NOT NULL AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[]))
      ORDER BY waiting_since, phone_id, chat_id OFFSET ${offset} LIMIT ${limit}`;
  }

  async waitingCount(scope: MetricsScope): Promise<number> {
    const { orgId, phones } = scope;
    const [row] = await this.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM analytics_chat_states
      WHERE org_id = ${orgId}::uuid AND waiting_since IS NOT NULL AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[]))`;
    return row.n;
  }

  /** Chats with flagged messages, most flagged first. */
  flagged(scope: MetricsScope, offset: number, limit: number): Promise<FlaggedRow[]> {
    const { orgId, phones } = scope;
    return this.prisma.$queryRaw<FlaggedRow[]>`
      SELECT phone_id, chat_id, flagged_count FROM analytics_chat_states
      WHERE org_id = ${orgId}::uuid AND flagged_count > 0 AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[]))
      ORDER BY flagged_count DESC, phone_id, chat_id OFFSET ${offset} LIMIT ${limit}`;
  }

  async flaggedCount(scope: MetricsScope): Promise<number> {
    const { orgId, phones } = scope;
    const [row] = await this.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM analytics_chat_states
      WHERE org_id = ${orgId}::uuid AND flagged_count > 0 AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[]))`;
    return row.n;
  }

  /**
   * Chat copies breaching an SLA now: waits breached (sla.breached fired) and not answered since, one row per
   * chat copy with every policy it breaches, the earliest deadline first (the partial index of open breaches).
   */
  breaching(scope: MetricsScope, offset: number, limit: number): Promise<BreachingRow[]> {
    const { orgId, phones } = scope;
    return this.prisma.$queryRaw<BreachingRow[]>`
      SELECT t.phone_id, t.chat_id, (array_agg(t.message_id ORDER BY t.started_at, t.message_id))[1] AS message_id,
        min(t.started_at) AS waiting_since, min(t.due_at) AS due_at, min(t.fired_at) AS breached_at,
        jsonb_agg(jsonb_build_object('policy_id', p.policy_id, 'name', p.name, 'kind', p.kind, 'minutes', p.minutes)
          ORDER BY t.fired_at, p.policy_id) AS policies
      FROM analytics_sla_timers t JOIN analytics_sla_policies p ON p.policy_id = t.policy_id
      WHERE t.org_id = ${orgId}::uuid AND t.state = 'breached' AND t.answered_at IS NULL
        AND (${phones}::text[] IS NULL OR t.phone_id = ANY(${phones}::text[]))
      GROUP BY t.phone_id, t.chat_id
      ORDER BY min(t.due_at), t.phone_id, t.chat_id OFFSET ${offset} LIMIT ${limit}`;
  }

  async breachingCount(scope: MetricsScope): Promise<number> {
    const { orgId, phones } = scope;
    const [row] = await this.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(DISTINCT (phone_id, chat_id))::int AS n FROM analytics_sla_timers
      WHERE org_id = ${orgId}::uuid AND state = 'breached' AND answered_at IS NULL
        AND (${phones}::text[] IS NULL OR phone_id = ANY(${phones}::text[]))`;
    return row.n;
  }
}
