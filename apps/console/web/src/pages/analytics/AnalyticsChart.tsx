import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { chartData, type Interval, type MessageBucket } from './analytics-view';

/** The chart's series, their colours (the console's own) and the legend's words. */
const SERIES = [
  { label: 'Incoming messages', stroke: '#0a58ca', scale: 'y' },
  { label: 'Outgoing messages', stroke: '#116329', scale: 'y' },
  { label: 'First response median (minutes)', stroke: '#b42318', scale: 'min' },
] as const;
const HEIGHT = 260;

/**
 * The per-day / per-hour series as a uPlot chart (canvas): incoming and outgoing messages on the left
 * axis, the first response median in minutes on the right, times in the page's zone. The same figures
 * are in the table below it, which is what a screen reader reads.
 */
export function AnalyticsChart({ series, interval, tz }: { series: MessageBucket[]; interval: Interval; tz: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const data = chartData(series);
    // Day buckets: a tick on bucket starts (local midnights), labelled with their date, as many as fit.
    const days = new Map(series.map((b, i) => [data[0][i], b.bucket.slice(5, 10)]));
    const daySplits = (u: uPlot) =>
      data[0].filter((_, i, all) => i % Math.max(1, Math.ceil(all.length / Math.max(2, Math.floor(u.width / 70)))) === 0);
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 200),
        height: HEIGHT,
        legend: { show: false },
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), tz),
        scales: {
          x: { time: true },
          y: { range: (_u, _min, max) => [0, Math.max(max, 1)] },
          min: { range: (_u, _min, max) => [0, Math.max(max, 1)] },
        },
        series: [
          { label: interval === 'hour' ? 'Hour' : 'Day' },
          ...SERIES.map((s) => ({
            label: s.label,
            stroke: s.stroke,
            scale: s.scale,
            width: 2,
            points: { show: true, size: 6 },
            spanGaps: false,
          })),
        ],
        axes: [
          interval === 'day'
            ? { stroke: '#4d5560', splits: daySplits, values: (_u: uPlot, splits: number[]) => splits.map((x) => days.get(x) ?? '') }
            : { stroke: '#4d5560' },
          { scale: 'y', label: 'Messages', stroke: '#4d5560' },
          { scale: 'min', label: 'Minutes', side: 1, stroke: '#4d5560', grid: { show: false } },
        ],
      },
      data,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 200), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, interval, tz]);
  const per = interval === 'hour' ? 'hour' : 'day';
  return (
    <figure className="chart">
      <div
        ref={box}
        className="chart-box"
        role="img"
        aria-label={`Chart of incoming and outgoing messages and the first response median per ${per}; the table below has the same figures`}
      />
      <figcaption>
        <ul className="chart-legend">
          {SERIES.map((s) => (
            <li key={s.label}>
              <span className="swatch-line" style={{ background: s.stroke }} aria-hidden="true" />
              {s.label}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
