'use strict';
/** Reads V8 .cpuprofile files (node --cpu-prof) and lists where self time went, by function and by package. */
const fs = require('node:fs');
const path = require('node:path');

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
  if (u.startsWith('node:')) return 'node core';
  if (u.includes('/bench/')) return 'bench';
  return u;
}

/** skipMs: leave out the samples of the first skipMs of the profile (the process's start-up). */
function summarizeOne(file, topN = 25, skipMs = 0) {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  let at = 0;
  prof.samples.forEach((id, i) => {
    at += prof.timeDeltas[i] / 1000;
    if (at >= skipMs) counts.set(id, (counts.get(id) || 0) + 1);
  });
  let total = 0;
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
    total += c;
    const loc = n.callFrame.url ? `${where(n.callFrame.url)} ${path.basename(n.callFrame.url)}:${n.callFrame.lineNumber + 1}` : '';
    const key = `${fn}\u0000${loc}`;
    byFn.set(key, (byFn.get(key) || 0) + c);
    const pkg = ['(garbage collector)', '(program)'].includes(fn) ? fn : where(n.callFrame.url);
    byPkg.set(pkg, (byPkg.get(pkg) || 0) + c);
  }
  const pct = (c) => (100 * c) / Math.max(1, total);
  return {
    file: path.basename(file),
    busy_samples: total,
    skipped_ms: skipMs,
    idle_pct_of_all: (100 * idle) / Math.max(1, total + idle),
    top: [...byFn]
      .sort((a, b) => b[1] - a[1])
      .slice(0, topN)
      .map(([k, c]) => {
        const [name, loc] = k.split('\u0000');
        return { name, where: loc, pct: pct(c) };
      }),
    byPackage: [...byPkg]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([name, c]) => ({ name, pct: pct(c) })),
  };
}

/** pidNames: { pid: name }; skipMs: { pid: ms of start-up to leave out }. Returns { name: summary } for the profiles found in dir. */
function summarizeProfiles(dir, pidNames, skipMs = {}) {
  const out = {};
  if (!fs.existsSync(dir)) return out;
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.cpuprofile'))) {
    const pid = f.split('.')[3];
    const name = pidNames[pid] || `pid ${pid}`;
    out[name] = summarizeOne(path.join(dir, f), 25, skipMs[pid] || 0);
  }
  return out;
}

module.exports = { summarizeProfiles, summarizeOne };

if (require.main === module) {
  for (const f of process.argv.slice(2)) {
    const s = summarizeOne(f, 40);
    console.log(`\n${s.file}: ${s.busy_samples} busy samples, idle ${s.idle_pct_of_all.toFixed(1)}%`);
    for (const r of s.top) console.log(`  ${r.pct.toFixed(1).padStart(5)}%  ${r.name}  ${r.where}`);
    console.log(`  by package: ${s.byPackage.map((x) => `${x.name} ${x.pct.toFixed(1)}%`).join(', ')}`);
  }
}
