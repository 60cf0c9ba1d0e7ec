'use strict';
/** Percentiles, rates from progress samples, and where a V8 CPU profile spent its time. */
const fs = require('node:fs');
const path = require('node:path');

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

function where(url) {
  if (!url) return '(native/vm)';
  const u = url.replace(/^file:\/\//, '');
  const nm = u.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = u.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const lib = /\/(libs|apps)\/([^/]+)\//.exec(u);
  if (lib) return `${lib[1]}/${lib[2]}`;
  return u.startsWith('node:') ? 'node core' : u;
}

/** Self time of a .cpuprofile by function and by package, as % of non-idle samples. */
function profileSummary(file, topN = 20) {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const id of prof.samples) counts.set(id, (counts.get(id) || 0) + 1);
  let busy = 0;
  let idle = 0;
  const byFn = new Map();
  const byPkg = new Map();
  for (const [id, c] of counts) {
    const n = byId.get(id);
    const fn = n.callFrame.functionName || '(anonymous)';
    if (fn === '(idle)') {
      idle += c;
      continue;
    }
    busy += c;
    const loc = n.callFrame.url ? `${where(n.callFrame.url)} ${path.basename(n.callFrame.url)}:${n.callFrame.lineNumber + 1}` : '';
    byFn.set(`${fn}  ${loc}`, (byFn.get(`${fn}  ${loc}`) || 0) + c);
    const pkg = ['(garbage collector)', '(program)'].includes(fn) ? fn : where(n.callFrame.url);
    byPkg.set(pkg, (byPkg.get(pkg) || 0) + c);
  }
  const pct = (c) => Number(((100 * c) / Math.max(1, busy)).toFixed(1));
  return {
    busy_pct_of_wall: Number(((100 * busy) / Math.max(1, busy + idle)).toFixed(1)),
    top: [...byFn].sort((a, b) => b[1] - a[1]).slice(0, topN).map(([k, c]) => `${pct(c)}%  ${k}`),
    by_package: [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, c]) => `${k} ${pct(c)}%`),
  };
}

const fmt = (v, d = 0) => (v === null || v === undefined || Number.isNaN(v) ? '–' : Number(v).toFixed(d));

module.exports = { percentile, lagSummary, rateBetween, profileSummary, fmt };
