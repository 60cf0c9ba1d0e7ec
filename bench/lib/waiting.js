'use strict';
const os = require('node:os');

/** Small helpers the open-loop benches share. */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** The machine's load averages (1, 5, 15 min), for a result line. */
const loadAvg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
/** The p-th percentile of xs (nearest rank); NaN when empty. */
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
/** Polls `fn` every `everyMs` until it answers truthy; throws `timed out: <label>` after `timeoutMs`. */
async function waitFor(fn, timeoutMs, label, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${label}`);
    await sleep(everyMs);
  }
}

module.exports = { sleep, loadAvg, pct, waitFor };
