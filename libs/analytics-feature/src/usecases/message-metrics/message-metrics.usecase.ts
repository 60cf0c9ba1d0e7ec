import { Errors, slotPeriod, type MessageMetricsRequest, type MessageMetricsResult } from '@mapi/contracts';
import type { MetricsRepository, SeriesRow } from '../../repositories/metrics-repository';
import { MEMBER_PERIOD_CHATS, isMember, narrowedScope, scopeOf, type ChatLabels, type ChatReach } from '../../scope';

/** `+01:00` from an offset in seconds. */
export function offsetText(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  const hh = String(Math.floor(abs / 3600)).padStart(2, '0');
  const mm = String(Math.floor((abs % 3600) / 60)).padStart(2, '0');
  return `${sign}${hh}:${mm}`;
}

const bucketOf = (r: SeriesRow) => `${r.local}${offsetText(r.offset_s)}`;

/**
 * GET /analytics/messages: the period's counters, active chats and first- and next-response percentiles, in
 * total and per local day or hour, from the analytics aggregates of the organization (ctx.org_id) and
 * the scope's phones. For a console member, of the period's chats within their reach (the chats
 * service decides, per copy), summed from the per-chat slots; with `label`, of the period's chats carrying
 * it (and within reach), the same way.
 */
export class MessageMetrics {
  constructor(
    private readonly metrics: MetricsRepository,
    private readonly reach: ChatReach,
    private readonly labels: ChatLabels,
  ) {}

  async execute({ ctx, query }: MessageMetricsRequest): Promise<MessageMetricsResult> {
    let scope = scopeOf(ctx, query.phone_id);
    const { from, to } = slotPeriod(query.from, query.to);
    const label = query.label;
    if (label !== undefined || isMember(ctx)) {
      const candidates = await this.metrics.activeChats(scope, from, to, MEMBER_PERIOD_CHATS + 1);
      // one call either way: the label check keeps only the copies within the ctx's reach too
      scope =
        label === undefined
          ? await narrowedScope(scope, candidates, (copies) => this.reach(ctx, copies), query.to)
          : await narrowedScope(scope, candidates, (copies) => this.labels(ctx, copies, label), query.to, 'the period holds', "a label's");
    }
    let series: SeriesRow[];
    let totals;
    try {
      // one snapshot: the totals agree with the series even while the intake commits a batch
      [series, totals] = await this.metrics.snapshot(
        async (m) => [await m.series(scope, from, to, query.tz, query.interval), await m.totals(scope, from, to)] as const,
      );
    } catch (err) {
      // A name the runtime knows and Postgres does not (their zone databases differ slightly).
      if (/time zone/i.test(String((err as Error)?.message))) {
        throw Errors.validation(
          { tz: { message: `time zone ${query.tz} is not known`, value: query.tz } },
          `time zone ${query.tz} is not known`,
        );
      }
      throw err;
    }
    const sum = (k: 'incoming' | 'outgoing' | 'flagged') => series.reduce((n, r) => n + r[k], 0);
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      tz: query.tz,
      interval: query.interval,
      phone_id: query.phone_id ?? null,
      label: label ?? null,
      business_hours: totals.business_hours,
      totals: {
        active_chats: totals.active_chats,
        incoming: sum('incoming'),
        outgoing: sum('outgoing'),
        flagged: sum('flagged'),
        first_response_ms: totals.first,
        next_response_ms: totals.next,
      },
      series: series.map((r) => ({
        bucket: bucketOf(r),
        active_chats: r.active_chats,
        incoming: r.incoming,
        outgoing: r.outgoing,
        flagged: r.flagged,
        first_responses: r.first_responses,
        first_response_median_ms: r.first_response_median_ms,
        next_responses: r.next_responses,
        next_response_median_ms: r.next_response_median_ms,
      })),
    };
  }
}
