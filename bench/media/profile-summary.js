#!/usr/bin/env node
'use strict';
/**
 * Summarizes a .cpuprofile: self time by function and by package/file, biggest first.
 * Usage: node bench/media/profile-summary.js <file.cpuprofile> [top=25]
 */
const fs = require('node:fs');

const [file, topArg] = process.argv.slice(2);
const top = Number(topArg || 25);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = new Map();
profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) || 0) + (profile.timeDeltas[i] || 0)));
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const where = (url) => {
  if (!url) return '(native)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  return url.replace(/^file:\/\//, '').replace(/^.*\/work\/main\//, '');
};
const fn = new Map();
const pkg = new Map();
for (const [id, us] of dt) {
  const { callFrame: cf } = byId.get(id);
  const k = `${cf.functionName || '(anonymous)'} ${where(cf.url)}:${cf.lineNumber + 1}`;
  fn.set(k, (fn.get(k) || 0) + us);
  const p = where(cf.url);
  pkg.set(p, (pkg.get(p) || 0) + us);
}
const show = (title, map) => {
  console.log(`\n${title} (total ${(total / 1e3).toFixed(0)} ms)`);
  for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${k}`);
};
show('self time by function', fn);
show('self time by package/file', pkg);
