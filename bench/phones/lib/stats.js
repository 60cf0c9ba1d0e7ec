'use strict';
/** Percentiles, rates from progress samples, and where a V8 CPU profile spent its time. */
const { summarizeOne } = require('../../lib/cpuprofile-summary');

function percentile(values, p) {
  if (!values.length) return null;
  const s = Float64Array.from(values).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

function lagSummary(lags) {
  return { n: lags.length, p50: percentile(lags, 50), p90: percentile(lags, 90), p99: percentile(lags, 99), max: percentile(lags, 100) };
}

/** Rate of `field` (per second) between two sample times (ms since the run began). */
function rateBetween(samples, field, fromMs, toMs) {
  const a = samples.find((s) => s.t >= fromMs);
  const b = [...samples].reverse().find((s) => s.t <= toMs);
  if (!a || !b || b.t <= a.t) return null;
  return ((b[field] - a[field]) * 1000) / (b.t - a.t);
}

/** Self time of a .cpuprofile by function and by package, as % of non-idle samples (bench/lib/cpuprofile-summary.js). */
function profileSummary(file, topN = 20) {
  const s = summarizeOne(file, topN);
  return {
    busy_pct_of_wall: Number((100 - s.idle_pct_of_all).toFixed(1)),
    top: s.top.map((r) => `${r.pct.toFixed(1)}%  ${r.name}  ${r.where}`),
    by_package: s.byPackage.slice(0, 12).map((x) => `${x.name} ${x.pct.toFixed(1)}%`),
  };
}

const fmt = (v, d = 0) => (v === null || v === undefined || Number.isNaN(v) ? '–' : Number(v).toFixed(d));

module.exports = { percentile, lagSummary, rateBetween, profileSummary, fmt };
